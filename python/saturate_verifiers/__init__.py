"""The verifiers taskset ``saturate-verifiers``: verifiers imports a
taskset id as a top-level module (``saturate-verifiers`` ->
``saturate_verifiers``), so this module is that name for
``saturate.verifiers`` (``vf-eval saturate-verifiers``). Needs ``pip
install verifiers``."""

from saturate.verifiers import SaturateTaskset, load_environment

__all__ = ["SaturateTaskset", "load_environment"]
