"""Difficulty that follows the policy: ``Curriculum``.

Each config has a continuous difficulty ``d`` between its lowest and
highest level. A row is drawn at level ``floor(d)`` or the next level up,
the next one with probability ``d - floor(d)``: the engine's levels are
the steps, the difficulty slides between them, so the mix of a batch moves
smoothly (``difficulty(config)`` rises with the level the rows come
from). ``update(config, reward)`` records a reward; every ``window``
rewards of a config its mean success is compared with ``target``: above
``target + margin`` the difficulty goes up by ``step``, below ``target -
margin`` down by ``step`` (clamped to the config's levels), and the window
starts again. This is the adaptive rule of reasoning-gym's auto-curriculum
and RLVE's adaptive environments (raise difficulty while the policy
succeeds, lower it while it fails), on our levels.

Determinism and resuming. Every choice (which config, which level) is a
hash of ``(seed, draw number)``, never a global random state; rows come
from ``create_dataset(config, chunk, seed=h(seed, config, level, epoch),
level=level)``, read in order, a new epoch (and seed) once one is used up.
So the rows drawn and the difficulties are a pure function of the
constructor's arguments and the sequence of ``update`` calls.
``state_dict()`` is a JSON-serialisable dict of all of it;
``Curriculum.from_state(state)`` resumes where it stopped (the current
epoch's rows are made again, and equal, up to its cursor).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from typing import Any

from .stream import Dataset, configs as _configs, create_dataset

#: Version of the state layout ``state_dict`` writes.
STATE_VERSION = 1


def _unit(*keys: Any) -> float:
    """A number in [0, 1) from ``keys`` (SHA-256; the same everywhere)."""
    h = hashlib.sha256("\x1f".join(str(k) for k in keys).encode()).digest()
    return int.from_bytes(h[:8], "big") / 2.0**64


def _seed(*keys: Any) -> int:
    """A run seed (0 to 2^62) from ``keys``."""
    h = hashlib.sha256("\x1f".join(str(k) for k in keys).encode()).digest()
    return int.from_bytes(h[:8], "big") >> 2


class Curriculum:
    """Per-config difficulty that moves towards a target success rate.

    ``configs``: config names (``saturate.configs()`` lists them), or a
    mapping from name to the levels to use (default: the family's default
    levels). ``seed``: the run's seed. ``target``: the success rate to hold
    (0.5: the policy solves about half). ``margin``, ``step``, ``window``:
    the rule in the module documentation. ``start``: the starting
    difficulty (default: each config's lowest level). ``chunk``: rows per
    generated batch of one (config, level). Other keywords go to
    ``create_dataset`` (``domain``, ``config``, ``cache``, ``answer_format``).
    """

    def __init__(
        self,
        configs: Iterable[str] | Mapping[str, Iterable[int]],
        seed: int = 0,
        *,
        target: float = 0.5,
        margin: float = 0.1,
        step: float = 0.25,
        window: int = 16,
        start: float | None = None,
        chunk: int = 32,
        **options: Any,
    ) -> None:
        if not 0.0 < target < 1.0:
            raise ValueError(f"target must be in (0, 1), got {target}")
        if margin < 0 or step <= 0 or window < 1 or chunk < 1:
            raise ValueError("margin >= 0, step > 0, window >= 1 and chunk >= 1 are required")
        known = {c["name"]: [int(l) for l in c["levels"]] for c in _configs()}
        if isinstance(configs, Mapping):
            wanted = {str(k): sorted({int(l) for l in v}) for k, v in configs.items()}
        else:
            wanted = {}
            for c in configs:
                if c not in known:
                    raise ValueError(
                        f"unknown config {c!r}; expected one of {', '.join(sorted(known))}"
                    )
                wanted[c] = known[c]
        if not wanted:
            raise ValueError("Curriculum needs at least one config")
        for name, levels in wanted.items():
            if not levels:
                raise ValueError(f"{name}: no levels")
            if levels != list(range(levels[0], levels[-1] + 1)):
                raise ValueError(f"{name}: levels must be consecutive, got {levels}")
        self.seed = int(seed)
        self.target = float(target)
        self.margin = float(margin)
        self.step = float(step)
        self.window = int(window)
        self.chunk = int(chunk)
        self.options = dict(options)
        self.levels = wanted
        self.draws = 0
        self._state: dict[str, dict[str, Any]] = {}
        for name, levels in wanted.items():
            d = float(levels[0] if start is None else start)
            self._state[name] = {
                "difficulty": min(max(d, levels[0]), levels[-1]),
                "rewards": [],
                "updates": 0,
                "cursors": {},
            }
        self._open: dict[tuple[str, int], Dataset] = {}
        self.history: list[tuple[str, float]] = []

    # The knob.

    def difficulty(self, config: str) -> float:
        """The config's difficulty: a number between its lowest and highest
        level, rising with the level its rows come from."""
        return self._state[self._known(config)]["difficulty"]

    def update(self, config: str, reward: float) -> float:
        """Record a reward (0 to 1) of a row of ``config``; returns the
        config's difficulty after the rule has run."""
        s = self._state[self._known(config)]
        r = float(reward)
        if math.isnan(r):
            raise ValueError("reward is NaN")
        s["rewards"].append(min(max(r, 0.0), 1.0))
        s["updates"] += 1
        if len(s["rewards"]) >= self.window:
            mean = sum(s["rewards"]) / len(s["rewards"])
            lo, hi = self.levels[config][0], self.levels[config][-1]
            if mean > self.target + self.margin:
                s["difficulty"] = min(hi, s["difficulty"] + self.step)
            elif mean < self.target - self.margin:
                s["difficulty"] = max(lo, s["difficulty"] - self.step)
            s["rewards"] = []
            self.history.append((config, s["difficulty"]))
        return s["difficulty"]

    # Rows.

    def level_for(self, config: str, draw: int) -> int:
        """The level draw number ``draw`` of ``config`` comes from."""
        d = self.difficulty(config)
        base = math.floor(d)
        frac = d - base
        return base + 1 if _unit(self.seed, "level", config, draw) < frac else base

    def sample(self, n: int = 1, config: str | None = None) -> list[dict[str, Any]]:
        """The next ``n`` rows: each of a config chosen uniformly (by the
        seeded hash) among the curriculum's, or of ``config``, at a level
        drawn from its difficulty. Each row has the dataset's columns; its
        ``task`` is its config and ``level`` its level."""
        names = list(self.levels)
        out = []
        for _ in range(n):
            k = self.draws
            self.draws += 1
            name = config if config is not None else names[
                int(_unit(self.seed, "config", k) * len(names))
            ]
            level = self.level_for(self._known(name), k)
            out.append(self._next_row(name, level))
        return out

    def _next_row(self, config: str, level: int) -> dict[str, Any]:
        cursors = self._state[config]["cursors"]
        epoch, index = cursors.get(str(level), [0, 0])
        for _ in range(1000):
            ds = self._dataset(config, level, epoch)
            if index < self.chunk:
                ds._fill(index + 1)
                if index < len(ds._lines):
                    cursors[str(level)] = [epoch, index + 1]
                    return ds[index]
            epoch, index = epoch + 1, 0
            cursors[str(level)] = [epoch, 0]
        raise RuntimeError(f"{config} level {level}: 1000 batches in a row gave no row")

    def _dataset(self, config: str, level: int, epoch: int) -> Dataset:
        key = (config, level)
        ds = self._open.get(key)
        seed = _seed(self.seed, "rows", config, level, epoch)
        if ds is None or ds.seed != seed:
            ds = create_dataset(config, self.chunk, seed=seed, level=level, **self.options)
            self._open[key] = ds
        return ds

    def _known(self, config: str) -> str:
        if config not in self._state:
            raise KeyError(f"{config!r} is not in this curriculum ({', '.join(self._state)})")
        return config

    # Resuming.

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume, as JSON-serialisable data."""
        return {
            "version": STATE_VERSION,
            "seed": self.seed,
            "target": self.target,
            "margin": self.margin,
            "step": self.step,
            "window": self.window,
            "chunk": self.chunk,
            "options": dict(self.options),
            "levels": {k: list(v) for k, v in self.levels.items()},
            "draws": self.draws,
            "configs": {
                k: {
                    "difficulty": v["difficulty"],
                    "rewards": list(v["rewards"]),
                    "updates": v["updates"],
                    "cursors": {lv: list(c) for lv, c in v["cursors"].items()},
                }
                for k, v in self._state.items()
            },
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Curriculum:
        """A curriculum continuing from ``state_dict()``'s output."""
        if state.get("version") != STATE_VERSION:
            raise ValueError(
                f"curriculum state version {state.get('version')!r}; this saturate reads "
                f"version {STATE_VERSION}"
            )
        c = cls(
            state["levels"],
            state["seed"],
            target=state["target"],
            margin=state["margin"],
            step=state["step"],
            window=state["window"],
            chunk=state["chunk"],
            **state["options"],
        )
        c.draws = int(state["draws"])
        for k, v in state["configs"].items():
            s = c._state[c._known(k)]
            s["difficulty"] = float(v["difficulty"])
            s["rewards"] = [float(r) for r in v["rewards"]]
            s["updates"] = int(v["updates"])
            s["cursors"] = {str(lv): [int(x) for x in cur] for lv, cur in v["cursors"].items()}
        return c

    # Aliases in the names other frameworks use.
    to_dict = state_dict
    from_dict = from_state

    def __repr__(self) -> str:
        parts = ", ".join(f"{k}={v['difficulty']:.2f}" for k, v in self._state.items())
        return f"saturate.Curriculum({parts})"


__all__ = ["Curriculum", "STATE_VERSION"]
