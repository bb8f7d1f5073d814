//! The learned evaluation: a small network over each seat's view of the
//! board (NNUE), its inputs in [`features`], its weights and file in
//! [`network`].

pub mod features;
pub mod network;
