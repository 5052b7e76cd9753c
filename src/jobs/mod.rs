//! What a long run needs from the file system and the cluster, for the programs of the `tools`
//! feature (the arena, the experiments, `shannon exact`): a saved file written whole or not at
//! all ([`atomic_file`]), one run at a time per output file ([`run_lock`]), and one share of a
//! job array ([`shard`]).

pub mod atomic_file;
pub mod run_lock;
pub mod shard;
