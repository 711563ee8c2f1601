//! The autograd graph: the node arena and the nodes it holds.
pub mod anomaly;
pub mod arena;
pub mod node;
pub mod saved;
