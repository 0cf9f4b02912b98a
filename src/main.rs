//! Command-line front door of saturate.
fn main() {}
