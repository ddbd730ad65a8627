//! The implicit step over a robot's track contacts (`vehicle::implicit`) and the state it
//! leaves behind.
//!
//! The linearly implicit step hands each sticking contact its friction at the step's end: its
//! force at the predicted pose less the bristle's slope s = σ₀·(h + τ_d) times the change
//! J·Δv of its slip over the step (J the contact's belt or cross direction over the hull's
//! twist). The bristle, though, was stretched by the predicted pose's slip alone. So each
//! sticking bristle is stretched by h·J·Δv more, and the next step starts from the deflection
//! whose force the hull was handed. Without it the two parted by h·J·Δv a step, and a robot
//! pushed back by something its belts do not see was held less than its bristles then pushed
//! with: the scout driving into a standing traffic agent's box at a 5 ms step stalled short of
//! the box, then crept 5.8 cm in 5 s toward it (at 2–4 ms it reaches the box face and stays;
//! with the end-of-step stretch it does at 5 ms too).
//!
//! Every contact's forces move to the step's end likewise (`end_contacts`): its normal force
//! less (h·k + c)·J·Δv, its friction less each slope's s·J·Δv. These are the forces whose sum
//! the hull is handed, so the flippers' motors feel them ([`TrackedRobot::flipper_loads`]),
//! and the telemetry's contact forces and track loads ([`TrackedRobot::contacts`],
//! [`TrackedRobot::track_normal_force`]) add up to the wrench rapier applies, not to the
//! predicted pose's.

use nalgebra::{Vector2, Vector6};

use super::TrackedRobot;
use crate::vehicle::body::{BodyState, Wrench};
use crate::vehicle::implicit::{implicit_step, point_velocity_change, StepSettings};

impl TrackedRobot {
    /// The implicit step for the contacts' `explicit` wrench (at the predicted pose `body`),
    /// leaving the bristles and the flippers' loads where it ends (module docs). Returns the
    /// wrench to hand the physics engine.
    pub(super) fn solve_implicit(
        &mut self,
        explicit: &Wrench,
        body: &BodyState,
        settings: &StepSettings,
    ) -> Wrench {
        let dt = settings.dt;
        let (wrench, change) = implicit_step(
            explicit,
            &self.scratch.linearisation,
            &self.spec,
            body,
            (&settings.gravity, settings.hull.as_ref()),
            dt,
        );
        self.end_contacts(body, &change, dt);
        // The flippers' motors feel the forces the hull is handed, not those of the predicted
        // pose: a flipper pressing the hull up would otherwise push against a load a step
        // ahead of the motion, and self-righting slowed with the step (selfright20 at 135°:
        // 3.7 s explicit at 1–3 ms, implicitly 4.1 s at 2 ms and 5.8 s at 5 ms; with the
        // end-of-step loads 3.7 s at 2 and 5 ms).
        self.flipper_loads(body);
        wrench
    }

    /// Moves every contact to the step's end for the twist change Δv = `change` (module
    /// docs): its forces — in the contacts, the reported ones and the tracks' normal loads —
    /// and a sticking contact's bristle, stretched by its slip's change over the step, h·J·Δv.
    fn end_contacts(&mut self, body: &BodyState, change: &Vector6<f64>, dt: f64) {
        self.track_normal.iter_mut().for_each(|x| *x = 0.0);
        // The wrench stage reports every contact, in order: one report per contact.
        debug_assert_eq!(self.scratch.contacts.len(), self.last_contacts.len());
        let reported = self.last_contacts.iter_mut();
        for (c, shown) in self.scratch.contacts.iter_mut().zip(reported) {
            let at_point = point_velocity_change(&c.point, &body.com, change);
            if c.sticking {
                let slip = Vector2::new(at_point.dot(&c.tau), at_point.dot(&c.lateral));
                self.state.bristles[c.element] += c.stretch(slip, &self.state.belt_speed, dt);
            }
            shown.friction += c.move_to_step_end(&at_point, dt);
            let (track, normal_force) = c.track_load();
            shown.normal_force = normal_force;
            self.track_normal[track] += normal_force;
        }
    }
}
