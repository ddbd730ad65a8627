//! The massless track model of seed 004: belt geometry in the track plane, wheel–terrain and
//! run–terrain contact areas and forces, friction with stick–slip. Pure functions over 2D
//! geometry and velocities, testable without rapier.

pub mod area;
pub mod contact;
pub mod friction;
pub mod grouser;
pub mod load;
pub mod outline;
