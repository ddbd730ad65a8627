//! The operator input mapping, driven by scripted device events (no gamepad needed): dead
//! zones, curve continuity, hysteresis, tank and arcade mixing, speed limit, flipper target,
//! dead-man, disconnect and re-arming, one-shot actions, keyboard ramps, and mapping files.
//!
//! Every update uses the physics step of the simulator, 2 ms, as the station does.

use std::f64::consts::PI;
use std::fs;
use std::path::{Path, PathBuf};

use treadsim::config::ConfigError;
use treadsim::input::{
    load_mapping, pad_demand, Action, AxisId, Button, DriveMode, InputEvent, InputMapper, Key,
    MappedInput, MappingConfig, PadState, RawInput, SlowMode, Source,
};

const DT: f64 = 0.002;
/// Default `rearm_time` 0.2 s in steps.
const REARM_STEPS: usize = 100;
/// Tolerance on speeds computed along different float paths, m/s.
const TOL: f64 = 1e-12;

use InputEvent::{Axis, ButtonDown, ButtonUp, Connected, Disconnected, KeyDown, KeyUp};

/// A scripted operator station: a snapshot fed by events and the mapper under test.
struct Station {
    raw: RawInput,
    mapper: InputMapper,
}

impl Station {
    fn new(cfg: MappingConfig) -> Self {
        Station {
            raw: RawInput::new(),
            mapper: InputMapper::new(cfg).expect("valid mapping"),
        }
    }

    /// A station whose pad is connected, centred and armed (after the default re-arm time,
    /// 0.2 s = 100 steps, counted from the first centred update).
    fn with_pad(cfg: MappingConfig) -> Self {
        let mut s = Self::new(cfg);
        s.send(&[Connected]);
        let out = s.run(REARM_STEPS + 1);
        assert!(
            matches!(out.status.pad, PadState::Ready | PadState::DeadmanReleased),
            "{:?}",
            out.status
        );
        s
    }

    fn send(&mut self, events: &[InputEvent]) {
        self.raw.apply_all(events);
    }

    fn step(&mut self) -> MappedInput {
        self.mapper.update(&self.raw, DT)
    }

    /// `n` updates; returns the last.
    fn run(&mut self, n: usize) -> MappedInput {
        let mut last = self.step();
        for _ in 1..n {
            last = self.step();
        }
        last
    }

    fn stick(&mut self, stick: char, x: f64, y: f64) {
        let (ax, ay) = match stick {
            'L' => (AxisId::LeftX, AxisId::LeftY),
            _ => (AxisId::RightX, AxisId::RightY),
        };
        self.send(&[Axis(ax, x), Axis(ay, y)]);
    }
}

fn tank() -> MappingConfig {
    let mut c = MappingConfig::default();
    c.gamepad.mode = DriveMode::Tank;
    c
}

/// Tank mode with a linear, dead-zone-free stick: the stick value *is* the track demand, so
/// hysteresis can be tested on its own. Thresholds 0.05 / 0.02.
fn linear_tank() -> MappingConfig {
    let mut c = tank();
    c.gamepad.dead_zone = 0.0;
    c.gamepad.saturation = 1.0;
    c.gamepad.curve = 1.0;
    c.drive.start_threshold = 0.05;
    c.drive.stop_threshold = 0.02;
    c
}

/// Deterministic noise in [-1, 1] (xorshift), so the tests never depend on a seed crate.
struct Noise(u64);
impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

fn assert_close(actual: f64, expected: f64, tol: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= tol,
        "{what}: {actual} != {expected} (±{tol})"
    );
}

fn assert_stopped(out: &MappedInput, what: &str) {
    assert_eq!(
        (out.drive.left, out.drive.right),
        (0.0, 0.0),
        "{what}: expected an exact stop"
    );
}

// ---------------------------------------------------------------------------------------
// Dead zone and curve

#[test]
fn inside_the_dead_zone_the_output_is_exactly_zero() {
    // Tank: per axis, both signs, up to the edge itself (0.15).
    let mut s = Station::with_pad(tank());
    for i in 0..=150 {
        let y = i as f64 * 0.001;
        for v in [y, -y] {
            s.stick('L', 0.9, v); // x is ignored in tank mode
            s.stick('R', -0.9, -v);
            assert_stopped(&s.step(), &format!("tank stick {v}"));
        }
    }
    // Arcade: radial, every direction at radius 0.149 (x alone up to 0.149 too).
    let mut s = Station::with_pad(MappingConfig::default());
    for k in 0..72 {
        let a = k as f64 * PI / 36.0;
        s.stick('L', 0.149 * a.cos(), 0.149 * a.sin());
        let out = s.step();
        assert_stopped(&out, &format!("arcade angle {k}·5°"));
        assert_eq!(out.status.source, Source::Gamepad);
    }
}

#[test]
fn the_output_is_continuous_at_the_dead_zone_edge() {
    // Shaping alone: just past the edge the demand is tiny, for both modes and any curve.
    for curve in [1.0, 1.5, 3.0] {
        let mut c = tank();
        c.gamepad.curve = curve;
        let mut raw = RawInput::new();
        raw.connected = true;
        raw.left_y = 0.15 + 1e-6;
        let (l, r) = pad_demand(&c, &raw);
        assert!(
            l > 0.0 && l <= (1e-6 / 0.8f64).powf(curve) * (1.0 + 1e-6),
            "curve {curve}: {l}"
        );
        assert_eq!(r, 0.0);
        c.gamepad.mode = DriveMode::Arcade;
        raw.left_x = 0.0;
        let (l, r) = pad_demand(&c, &raw);
        assert!(
            l > 0.0 && l <= (1e-6 / 0.8f64).powf(curve) * (1.0 + 1e-6) && l == r,
            "arcade, curve {curve}: {l} {r}"
        );
    }
    // Through the mapper with a negligible start threshold: 0.1 mm/s just past the edge,
    // and the output grows linearly (curve 1) from there: (v − 0.2) / 0.8 · 1 m/s.
    let mut c = tank();
    c.gamepad.dead_zone = 0.2;
    c.gamepad.saturation = 1.0;
    c.gamepad.curve = 1.0;
    c.drive.start_threshold = 1e-9;
    c.drive.stop_threshold = 0.0;
    let mut s = Station::with_pad(c);
    for v in [0.2 + 1e-4, 0.2 + 1e-3, 0.3, 0.6, 1.0] {
        s.stick('L', 0.0, v);
        assert_close(
            s.step().drive.left,
            (v - 0.2) / 0.8,
            TOL,
            &format!("stick {v}"),
        );
    }
}

// ---------------------------------------------------------------------------------------
// Hysteresis

#[test]
fn noise_below_the_start_threshold_never_moves_a_stopped_robot() {
    let mut s = Station::with_pad(linear_tank());
    let mut noise = Noise(0x2545_f491_4f6c_dd1d);
    let amplitude = 0.05 - 1e-3; // start − ε
    let mut peak: f64 = 0.0;
    for _ in 0..20_000 {
        let (a, b) = (amplitude * noise.next(), amplitude * noise.next());
        peak = peak.max(a.abs());
        s.stick('L', 0.0, a);
        s.stick('R', 0.0, b);
        assert_stopped(&s.step(), "noise inside ±(start − ε)");
    }
    assert!(peak > 0.048, "the noise reached the band edge: {peak}");
    // Just above the start threshold the track starts, with exactly its demand.
    s.stick('L', 0.0, 0.0501);
    s.stick('R', 0.0, 0.0);
    let out = s.step();
    assert_close(out.drive.left, 0.0501, TOL, "started");
    assert_eq!(out.drive.right, 0.0);
}

#[test]
fn a_moving_track_keeps_moving_until_its_demand_falls_below_stop() {
    let mut s = Station::with_pad(linear_tank());
    s.stick('L', 0.0, 0.5);
    assert_close(s.step().drive.left, 0.5, TOL, "moving");
    // Noise between stop (0.02) and start (0.05): the track keeps following the demand and
    // never drops to 0, so no start/stop chatter.
    let mut noise = Noise(99);
    for _ in 0..5_000 {
        let v = 0.035 + 0.0149 * noise.next();
        s.stick('L', 0.0, v);
        assert_close(s.step().drive.left, v, TOL, "between the thresholds");
    }
    s.stick('L', 0.0, 0.0199);
    assert_stopped(&s.step(), "below stop");
    // Stopped again: the band now holds it at rest.
    s.stick('L', 0.0, 0.049);
    assert_stopped(&s.step(), "back inside the band");
    // Reversing through zero also passes through the stopped state.
    s.stick('L', 0.0, -0.3);
    assert_close(s.step().drive.left, -0.3, TOL, "reverse");
}

#[test]
fn a_slight_diagonal_in_arcade_mode_gives_nothing_at_rest_and_a_proportional_differential_at_speed()
{
    let mut s = Station::with_pad(MappingConfig::default());
    // Inside the radial dead zone, and just outside it where only hysteresis holds the robot:
    // |(0.14, 0.14)| = 0.198 → per-track demand 0.021 < start 0.03.
    for (x, y) in [
        (0.1, 0.1),
        (-0.12, 0.12),
        (0.14, 0.14),
        (0.14, -0.14),
        (0.05, 0.19),
    ] {
        s.stick('L', x, y);
        let out = s.step();
        assert_stopped(&out, &format!("diagonal ({x}, {y}) at rest"));
    }
    // At full speed a stick 0.1 off-axis turns the tracks' ratio by exactly x/y: curvature
    // (l − r)/(l + r) = 0.1, both tracks forward, the faster one at full speed.
    s.stick('L', 0.1, 1.0);
    let d = s.step().drive;
    assert_close(d.left, 1.0, TOL, "outer track");
    assert!(d.right > 0.8 && d.right < d.left, "{d:?}");
    assert_close(
        (d.left - d.right) / (d.left + d.right),
        0.1,
        1e-12,
        "curvature",
    );
    // Half speed, the same small offset: the same proportional differential.
    s.stick('L', 0.03, 0.55);
    let d = s.step().drive;
    assert!(d.left > d.right && d.right > 0.0, "{d:?}");
    assert_close(
        (d.left - d.right) / (d.left + d.right),
        0.03 / 0.55,
        1e-12,
        "curvature at half speed",
    );
}

// ---------------------------------------------------------------------------------------
// Mixing

#[test]
fn tank_mode_maps_each_stick_y_to_its_track() {
    let mut s = Station::with_pad(tank());
    s.stick('L', 0.0, 1.0);
    let d = s.step().drive;
    assert_eq!((d.left, d.right), (1.0, 0.0));
    s.stick('R', 0.0, -1.0);
    let d = s.step().drive;
    assert_eq!((d.left, d.right), (1.0, -1.0));
    // Half of the live travel (0.55 = 0.15 + 0.4) with curve 1.5: 0.5^1.5 of 1 m/s.
    s.stick('L', 0.7, 0.55);
    s.stick('R', -0.7, -0.55);
    let d = s.step().drive;
    assert_close(d.left, 0.5f64.powf(1.5), TOL, "left");
    assert_close(d.right, -(0.5f64.powf(1.5)), TOL, "right");
    // Saturation: 0.95 and beyond is full.
    s.stick('L', 0.0, 0.96);
    assert_eq!(s.step().drive.left, 1.0);
}

#[test]
fn arcade_full_stick_gives_full_speed_and_spins_in_place() {
    let mut cfg = MappingConfig::default();
    cfg.drive.max_speed = 1.5;
    let mut s = Station::with_pad(cfg);
    let cases = [
        ((0.0, 1.0), (1.5, 1.5), "full forward"),
        ((0.0, -1.0), (-1.5, -1.5), "full back"),
        ((1.0, 0.0), (1.5, -1.5), "full right in place"),
        ((-1.0, 0.0), (-1.5, 1.5), "full left in place"),
    ];
    for ((x, y), (l, r), what) in cases {
        s.stick('L', x, y);
        let d = s.step().drive;
        assert_close(d.left, l, TOL, what);
        assert_close(d.right, r, TOL, what);
    }
}

#[test]
fn arcade_forward_plus_turn_stays_within_max_and_keeps_the_differential() {
    let mut s = Station::with_pad(MappingConfig::default());
    // Stick (0.5, 1.0) saturates in its direction: speed 2/√5, turn 1/√5 → tracks 3:1.
    s.stick('L', 0.5, 1.0);
    let d = s.step().drive;
    assert_close(d.left, 1.0, TOL, "outer");
    assert_close(d.right, 1.0 / 3.0, TOL, "inner (clipping would give 0.447)");
    // Full forward + full right: pivot about the right track, not both tracks at full.
    s.stick('L', 1.0, 1.0);
    let d = s.step().drive;
    assert_close(d.left, 1.0, TOL, "outer");
    assert_close(d.right, 0.0, TOL, "inner");
    // Every stick position: |track| ≤ max, and the tracks' ratio is the stick's.
    for i in -10..=10 {
        for j in -10..=10 {
            let (x, y) = (i as f64 / 10.0, j as f64 / 10.0);
            if x.hypot(y) > 1.0 || x.hypot(y) < 0.3 {
                continue;
            }
            s.stick('L', x, y);
            let d = s.step().drive;
            assert!(d.left.abs() <= 1.0 + TOL && d.right.abs() <= 1.0 + TOL);
            // (l − r)/2 : (l + r)/2 = turn : speed = x : y (turn_gain 1).
            assert!(
                ((d.left - d.right) * y - (d.left + d.right) * x).abs() < 1e-12,
                "({x}, {y}) → {d:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Speed limit and flipper

#[test]
fn the_speed_limit_scales_the_output_while_held_or_toggled() {
    let mut s = Station::with_pad(MappingConfig::default());
    s.stick('L', 0.0, 1.0);
    assert_eq!(s.step().drive.left, 1.0);
    s.send(&[ButtonDown(Button::RightBumper)]);
    let out = s.step();
    assert!(out.status.slow);
    assert_close(out.drive.left, 0.25, TOL, "slow, hold");
    assert_close(out.drive.right, 0.25, TOL, "slow, hold");
    s.send(&[ButtonUp(Button::RightBumper)]);
    assert_eq!(s.step().drive.left, 1.0);
    // Keyboard Shift limits the pad's output too.
    s.send(&[KeyDown(Key::LShift)]);
    assert_close(s.step().drive.left, 0.25, TOL, "shift");
    s.send(&[KeyUp(Key::LShift)]);

    let mut cfg = MappingConfig::default();
    cfg.drive.slow_mode = SlowMode::Toggle;
    cfg.drive.slow_speed_factor = 0.5;
    let mut s = Station::with_pad(cfg);
    s.stick('L', 0.0, 1.0);
    s.send(&[ButtonDown(Button::RightBumper)]);
    assert_close(s.run(50).drive.left, 0.5, TOL, "toggled on, held");
    s.send(&[ButtonUp(Button::RightBumper)]);
    assert_close(s.run(50).drive.left, 0.5, TOL, "toggled on, released");
    s.send(&[ButtonDown(Button::RightBumper)]);
    assert_eq!(s.step().drive.left, 1.0, "toggled off");
}

/// An exercise's speed limit is the control unit's speed selector: a held key (after its
/// ramp) and a full stick cruise at the limit, slow mode at its share of it; without a limit
/// the mapping's `max_speed` again.
#[test]
fn an_exercise_speed_limit_caps_full_demand() {
    let mut s = Station::with_pad(MappingConfig::default());
    s.mapper.set_speed_limit(Some(0.5));
    assert_eq!(s.mapper.top_speed(), 0.5);
    s.stick('L', 0.0, 1.0);
    assert_close(s.step().drive.left, 0.5, TOL, "full stick at the limit");
    s.send(&[KeyDown(Key::LShift)]);
    assert_close(
        s.step().drive.left,
        0.125,
        TOL,
        "slow: a quarter of the limit",
    );
    s.send(&[KeyUp(Key::LShift)]);
    s.stick('L', 0.0, 0.0);
    s.send(&[KeyDown(Key::W)]);
    assert_close(
        s.run(500).drive.left,
        0.5,
        TOL,
        "a held key cruises at the limit",
    );
    // A limit above the mapping's top speed changes nothing; none restores it.
    s.mapper.set_speed_limit(Some(5.0));
    assert_eq!(s.mapper.top_speed(), 1.0);
    s.mapper.set_speed_limit(None);
    assert_close(s.run(10).drive.left, 1.0, TOL, "no limit");
}

#[test]
fn flipper_target_moves_at_the_rate_while_held_and_stops_at_the_limits() {
    let mut s = Station::with_pad(MappingConfig::default());
    assert_eq!(
        s.step().drive.flipper,
        None,
        "untouched: keep the robot's angle"
    );
    s.send(&[ButtonDown(Button::DPadUp)]);
    let out = s.run(500); // 1 s
    assert_close(
        out.drive.flipper.unwrap(),
        30f64.to_radians(),
        1e-12,
        "1 s at 30°/s",
    );
    s.send(&[ButtonUp(Button::DPadUp)]);
    assert_close(
        s.run(100).drive.flipper.unwrap(),
        30f64.to_radians(),
        1e-12,
        "released: the target holds",
    );
    // Both held: no motion.
    s.send(&[ButtonDown(Button::DPadUp), ButtonDown(Button::DPadDown)]);
    assert_close(
        s.run(100).drive.flipper.unwrap(),
        30f64.to_radians(),
        1e-12,
        "both",
    );
    s.send(&[ButtonUp(Button::DPadDown)]);
    assert_eq!(
        s.run(6 * 500).drive.flipper,
        Some(180f64.to_radians()),
        "clamped at 180°"
    );
    s.send(&[ButtonUp(Button::DPadUp), KeyDown(Key::Q)]);
    assert_eq!(
        s.run(10 * 500).drive.flipper,
        Some((-90f64).to_radians()),
        "keyboard Q, clamped at −90°"
    );
    // The station narrows the range to the robot's and starts from the robot's angle.
    s.send(&[KeyUp(Key::Q)]);
    s.mapper.set_flipper_range(-0.5, 0.5);
    assert_eq!(s.step().drive.flipper, Some(-0.5));
    s.mapper.set_flipper_target(Some(0.2));
    s.send(&[KeyDown(Key::E)]);
    let out = s.run(500); // 1 s at 30°/s: 0.2 + 0.5236 rad → clamped at 0.5
    assert_eq!(out.drive.flipper, Some(0.5));
    assert_close(
        {
            s.mapper.set_flipper_target(Some(0.2));
            s.step().drive.flipper.unwrap()
        },
        0.2 + 30f64.to_radians() * DT,
        1e-15,
        "one step from the robot's angle",
    );
}

// ---------------------------------------------------------------------------------------
// Dead-man, disconnect, re-arming

#[test]
fn releasing_the_deadman_stops_on_the_next_update_and_pressing_it_resumes() {
    let mut cfg = MappingConfig::default();
    cfg.gamepad.deadman = Some(Button::LeftBumper);
    let mut s = Station::with_pad(cfg);
    s.stick('L', 0.0, 1.0);
    let out = s.step();
    assert_stopped(&out, "dead-man not held yet");
    assert_eq!(out.status.pad, PadState::DeadmanReleased);
    s.send(&[ButtonDown(Button::LeftBumper)]);
    assert_eq!(s.run(100).drive.left, 1.0);
    // Released: the very next update is a stop; the flipper buttons are dead too.
    s.send(&[ButtonUp(Button::LeftBumper), ButtonDown(Button::DPadUp)]);
    let out = s.step();
    assert_stopped(&out, "dead-man released");
    assert_eq!(out.drive.flipper, None);
    assert_eq!(out.status.source, Source::None);
    assert_stopped(&s.run(500), "still released");
    // Pressed again with the stick still forward: resumes on that update (the documented
    // choice: the operator holds both deliberately, no re-centring).
    s.send(&[ButtonDown(Button::LeftBumper)]);
    let out = s.step();
    assert_eq!((out.drive.left, out.drive.right), (1.0, 1.0));
    assert_close(
        out.drive.flipper.unwrap(),
        30f64.to_radians() * DT,
        1e-15,
        "flipper",
    );
}

#[test]
fn a_disconnect_stops_on_the_next_update() {
    let mut s = Station::with_pad(tank());
    s.stick('L', 0.0, 1.0);
    s.stick('R', 0.0, 0.8);
    let out = s.run(10);
    assert!(out.drive.left == 1.0 && out.drive.right > 0.7);
    s.send(&[Disconnected]);
    let out = s.step();
    assert_stopped(&out, "after the disconnect event");
    assert_eq!(out.status.pad, PadState::Absent);
    // A snapshot that still holds stale axes but says "not connected" is a stop as well.
    let mut stale = RawInput::new();
    stale.left_y = 1.0;
    stale.right_y = 1.0;
    stale.buttons.insert(Button::DPadUp);
    let out = s.mapper.update(&stale, DT);
    assert_stopped(&out, "stale snapshot");
    assert_eq!(
        out.drive.flipper, None,
        "a lost pad's flipper button does nothing"
    );
}

#[test]
fn a_pad_that_returns_with_a_stick_held_stays_stopped_until_centred() {
    let mut s = Station::with_pad(MappingConfig::default());
    s.stick('L', 0.0, 1.0);
    assert_eq!(s.step().drive.left, 1.0);
    s.send(&[Disconnected]);
    assert_stopped(&s.step(), "lost");
    // Back, and the adapter reports the stick still pushed forward.
    s.send(&[Connected, Axis(AxisId::LeftY, 1.0)]);
    for i in 0..1_000 {
        let out = s.step();
        assert_stopped(&out, &format!("disarmed, update {i}"));
        assert_eq!(out.status.pad, PadState::WaitingForCentre);
    }
    // Part way back is not centred.
    s.stick('L', 0.0, 0.3);
    assert_stopped(&s.step(), "0.3 is not centred");
    // Centred (inside the dead zone) for 0.2 s: armed, still at rest. A brief push during the
    // wait restarts it.
    s.stick('L', 0.02, 0.1);
    assert_eq!(s.run(60).status.pad, PadState::WaitingForCentre);
    s.stick('L', 0.0, 0.5);
    assert_stopped(&s.step(), "pushed during the wait");
    s.stick('L', 0.02, 0.1);
    for i in 0..REARM_STEPS {
        let out = s.step();
        assert_stopped(&out, "centred, waiting");
        assert_eq!(out.status.pad, PadState::WaitingForCentre, "update {i}");
    }
    let out = s.step();
    assert_stopped(&out, "centred");
    assert_eq!(
        out.status.pad,
        PadState::Ready,
        "0.2 s after the first centred update"
    );
    // Now it drives.
    s.stick('L', 0.0, 1.0);
    assert_eq!(s.step().drive.left, 1.0);
}

#[test]
fn a_pad_present_at_start_with_a_stick_held_waits_for_centre_and_no_pad_is_normal() {
    let mut s = Station::new(MappingConfig::default());
    let out = s.step();
    assert_stopped(&out, "no pad, no keys");
    assert_eq!(
        (out.status.source, out.status.pad),
        (Source::None, PadState::Absent)
    );
    s.send(&[Connected, Axis(AxisId::LeftY, -1.0)]);
    assert_stopped(&s.run(100), "held from the start");
    s.stick('L', 0.0, 0.0);
    s.run(REARM_STEPS + 1);
    s.stick('L', 0.0, -1.0);
    assert_eq!(s.step().drive.left, -1.0);
}

#[test]
fn the_keyboard_drives_without_a_pad_and_through_a_disconnect() {
    let mut s = Station::new(MappingConfig::default());
    s.send(&[KeyDown(Key::W)]);
    let out = s.run(250);
    assert_eq!(out.status.source, Source::Keyboard);
    assert_close(out.drive.left, 1.0, TOL, "ramped to full after 0.5 s");
    // A pad coming and going while the keyboard drives changes nothing.
    s.send(&[Connected, Axis(AxisId::LeftY, -1.0)]);
    assert_close(s.step().drive.left, 1.0, TOL, "keys win over the pad");
    s.send(&[Disconnected]);
    assert_close(s.step().drive.left, 1.0, TOL, "disconnect while on keys");
    // Focus lost: every key up, stop at once.
    s.send(&[InputEvent::AllKeysUp]);
    assert_stopped(&s.step(), "focus lost");
}

// ---------------------------------------------------------------------------------------
// One-shot actions and the keyboard

#[test]
fn a_held_camera_button_fires_once_per_press() {
    let mut s = Station::with_pad(MappingConfig::default());
    let count = |s: &mut Station, n: usize| {
        (0..n)
            .map(|_| s.step().actions)
            .filter(|a| a.next_camera)
            .count()
    };
    s.send(&[ButtonDown(Button::DPadRight)]);
    assert_eq!(count(&mut s, 1_000), 1, "held for 2 s");
    s.send(&[KeyDown(Key::Tab)]);
    assert_eq!(
        count(&mut s, 10),
        0,
        "a second binding while the first is held"
    );
    s.send(&[ButtonUp(Button::DPadRight), KeyUp(Key::Tab)]);
    assert_eq!(count(&mut s, 10), 0, "released");
    for _ in 0..3 {
        s.send(&[KeyDown(Key::C)]);
        assert_eq!(count(&mut s, 7), 1);
        s.send(&[KeyUp(Key::C)]);
        assert_eq!(count(&mut s, 7), 0);
    }
    // Each action has its own binding and fires alone.
    let presses = [
        (Key::X, "prev_camera"),
        (Key::P, "toggle_pause"),
        (Key::Backspace, "reset"),
        (Key::N, "single_step"),
        (Key::V, "toggle_trainee_view"),
    ];
    for (key, name) in presses {
        s.send(&[KeyDown(key)]);
        let a = s.step().actions;
        let fired = [
            ("prev_camera", a.prev_camera),
            ("toggle_pause", a.toggle_pause),
            ("reset", a.reset),
            ("single_step", a.single_step),
            ("toggle_trainee_view", a.toggle_trainee_view),
            ("next_camera", a.next_camera),
        ];
        for (n, f) in fired {
            assert_eq!(f, n == name, "{key} → {n}");
        }
        s.send(&[KeyUp(key)]);
        assert!(!s.step().actions.any());
    }
    // The pad's buttons of a disconnected pad fire nothing.
    s.send(&[Disconnected]);
    s.raw.buttons.insert(Button::Start);
    assert!(!s.step().actions.any());
}

#[test]
fn holding_w_ramps_the_keyboard_demand_up_and_releasing_stops_at_once() {
    let mut s = Station::new(MappingConfig::default());
    s.send(&[KeyDown(Key::W)]);
    // 0.5 s ramp at 2 ms: +0.004 per update. The first 7 updates (≤ 0.028) are held at rest
    // by the start threshold (0.03); from the 8th on the output is the ramp itself.
    let mut last = 0.0;
    for n in 1..=300 {
        let d = s.step().drive;
        let expected = if n <= 7 {
            0.0
        } else {
            (n as f64 * DT / 0.5).min(1.0)
        };
        assert_close(d.left, expected, 1e-9, &format!("update {n}"));
        assert_eq!(d.left, d.right);
        assert!(d.left >= last);
        last = d.left;
    }
    assert_eq!(last, 1.0);
    // Reversing drops to 0 and ramps the other way; releasing stops on the next update.
    s.send(&[KeyUp(Key::W), KeyDown(Key::S)]);
    assert_stopped(&s.step(), "reversal starts from rest (0.004 < start)");
    assert_close(
        s.run(99).drive.left,
        -0.4,
        1e-9,
        "0.2 s into the reverse ramp",
    );
    s.send(&[KeyUp(Key::S)]);
    assert_stopped(&s.step(), "released");
    // A alone: spin left in place at turn_gain 0.5 once ramped.
    s.send(&[KeyDown(Key::A)]);
    let d = s.run(500).drive;
    assert_close(d.left, -0.5, 1e-12, "A: left track back");
    assert_close(d.right, 0.5, 1e-12, "A: right track forward");
    // W + D: forward with a right turn, both within max, ratio (1 + 0.5) : (1 − 0.5).
    s.send(&[KeyUp(Key::A), KeyDown(Key::W), KeyDown(Key::D)]);
    let d = s.run(500).drive;
    assert_close(d.left, 1.0, 1e-12, "W+D outer");
    assert_close(d.right, 1.0 / 3.0, 1e-12, "W+D inner");
}

#[test]
fn a_keyboard_deadman_gates_the_keys() {
    let mut cfg = MappingConfig::default();
    cfg.keyboard.deadman = Some(Key::LControl);
    cfg.keyboard.ramp_time = 0.0;
    let mut s = Station::new(cfg);
    s.send(&[KeyDown(Key::W)]);
    assert_stopped(&s.run(10), "Ctrl not held");
    s.send(&[KeyDown(Key::LControl)]);
    assert_eq!(s.step().drive.left, 1.0, "no ramp: full at once");
    s.send(&[KeyUp(Key::LControl)]);
    assert_stopped(&s.step(), "Ctrl released");
}

#[test]
fn reset_forgets_motion_and_rearms() {
    let mut s = Station::with_pad(MappingConfig::default());
    s.stick('L', 0.0, 1.0);
    s.send(&[ButtonDown(Button::DPadUp)]);
    let out = s.run(10);
    assert!(out.drive.left == 1.0 && out.drive.flipper.is_some());
    s.mapper.reset();
    let out = s.step();
    assert_stopped(&out, "after reset with the stick held");
    assert_eq!(out.status.pad, PadState::WaitingForCentre);
    assert_close(
        out.drive.flipper.unwrap(),
        30f64.to_radians() * DT,
        1e-15,
        "the flipper target restarts from 0",
    );
}

// ---------------------------------------------------------------------------------------
// Mapping files

fn mapping_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/input")
}

#[test]
fn the_default_file_is_the_default_mapping() {
    let cfg = load_mapping(&mapping_dir().join("default_mapping.toml")).unwrap_or_else(|e| {
        panic!("{e}");
    });
    assert_eq!(cfg, MappingConfig::default());
    // Spot checks of the documented scheme.
    assert_eq!(cfg.gamepad.mode, DriveMode::Arcade);
    assert_eq!(cfg.gamepad.buttons.get(Action::Slow), [Button::RightBumper]);
    assert_eq!(cfg.keyboard.forward, [Key::W, Key::Up]);
    assert_eq!(cfg.gamepad.deadman, None);
    assert_close(cfg.flipper.rate, PI / 6.0, 1e-15, "30°/s");
}

#[test]
fn the_readme_documents_every_field_of_the_default_file() {
    let readme = fs::read_to_string(mapping_dir().join("README.md")).unwrap();
    let toml = fs::read_to_string(mapping_dir().join("default_mapping.toml")).unwrap();
    let mut section = String::new();
    for line in toml.lines().map(str::trim) {
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.to_string();
        } else if let Some((key, _)) = line.split_once('=') {
            if line.starts_with('#') {
                continue;
            }
            let key = key.trim();
            let documented = if section.ends_with("buttons") || section.ends_with("keys") {
                readme.contains(&format!("`{key}`")) || readme.contains(key)
            } else {
                readme.contains(&format!("`{section}.{key}`"))
            };
            assert!(documented, "{section}.{key} is not in README.md");
        }
    }
}

struct BadFile {
    dir: tempfile::TempDir,
}

impl BadFile {
    fn new() -> Self {
        BadFile {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// Loads `text` expecting an error at `line` in `field` whose message holds every `what`.
    fn check(&self, text: &str, line: usize, field: &str, what: &[&str]) -> ConfigError {
        let path = self.dir.path().join("mapping.toml");
        fs::write(&path, text).unwrap();
        let e = load_mapping(&path).expect_err("the mapping must be refused");
        let shown = e.to_string();
        assert_eq!(e.path, path, "{shown}");
        assert_eq!((e.line, e.field.as_str()), (line, field), "{shown}");
        for w in what {
            assert!(e.message.contains(w), "expected '{w}' in: {shown}");
        }
        assert!(
            shown.starts_with(&format!("{}:{line}:", path.display())),
            "{shown}"
        );
        e
    }
}

#[test]
fn bad_mapping_files_give_located_errors() {
    let f = BadFile::new();
    let e = f.check(
        "[gamepad.buttons]\npause = \"Start\"\ncamera_next = \"Triangle\"\n",
        3,
        "gamepad.buttons.camera_next",
        &[
            "unknown button \"Triangle\"",
            "South (A)",
            "RightStick (RS)",
        ],
    );
    assert_eq!(e.column, 15, "at the value: {e}");
    f.check(
        "[keyboard.keys]\nforward = \"W, Upp\"\n",
        2,
        "keyboard.keys.forward",
        &["unknown key \"Upp\"", "PageUp", "F12"],
    );
    f.check(
        "[drive]\nstart_threshold = 0.02\nstop_threshold = 0.05\n",
        3,
        "drive.stop_threshold",
        &["less than start_threshold (0.02)"],
    );
    f.check(
        "[drive]\nstart_threshold = 0.02\nstop_threshold = 0.02\n",
        3,
        "drive.stop_threshold",
        &["less than start_threshold"],
    );
    // Against a defaulted field: start 0.01 is below the default stop 0.015.
    f.check(
        "[drive]\nmax_speed = 2\nstart_threshold = 0.01\n",
        1,
        "drive.stop_threshold",
        &["less than start_threshold (0.01)"],
    );
    f.check(
        "[gamepad]\ndead_zone = 0.5\nsaturation = 0.4\n",
        3,
        "gamepad.saturation",
        &["greater than dead_zone (0.5)"],
    );
    f.check(
        "[gamepad]\ndeadzone = 0.1\n",
        2,
        "gamepad.deadzone",
        &["unknown field", "dead_zone"],
    );
    f.check(
        "\n[gamepad]\ncurve = 0.5\n",
        3,
        "gamepad.curve",
        &["between 1 and 5"],
    );
    f.check(
        "[drive]\nmax_speed = 0\n",
        2,
        "drive.max_speed",
        &["greater than 0"],
    );
    f.check(
        "[gamepad]\nmode = \"car\"\n",
        2,
        "gamepad.mode",
        &["\"tank\" or \"arcade\""],
    );
    f.check(
        "[keyboard.keys]\nforward = [\"W\", \"Up\"]\n",
        2,
        "keyboard.keys.forward",
        &["one string separated by commas"],
    );
    f.check(
        "[gamepad]\ndeadman = \"LB, RB\"\n",
        2,
        "gamepad.deadman",
        &["one input"],
    );
    f.check(
        "[keyboard.keys]\ncamera_next = \"W\"\n",
        2,
        "keyboard.keys.camera_next",
        &["'W' is already bound to keyboard.keys.forward"],
    );
    f.check(
        "[flipper]\nmin_angle_deg = 10\nmax_angle_deg = 10\n",
        3,
        "flipper.max_angle_deg",
        &["greater than min_angle_deg (10)"],
    );
    f.check(
        "[drive]\nslow_mode = \"latch\"\n",
        2,
        "drive.slow_mode",
        &["\"hold\" or \"toggle\""],
    );
    f.check("[drive\nmax_speed = 1\n", 1, "", &["TOML syntax"]);
    f.check("speed = 1\n", 1, "speed", &["unknown field", "gamepad"]);
}

/// An Ackermann robot (steering limit 30°): the stick's speed drives both sides alike and its
/// turn becomes the front wheels' angle, full deflection full lock, positive to the left; a
/// tracked robot's mapping (no steering) is unchanged.
#[test]
fn ackermann_steering_from_the_stick() {
    let limit = 30f64.to_radians();
    let mut s = Station::with_pad(MappingConfig::default());
    s.mapper.set_steering(Some(limit));
    let cases = [
        ((0.0, 1.0), (1.0, 0.0), "full forward, straight"),
        (
            (1.0, 0.0),
            (0.0, -limit),
            "full right at rest: full lock right",
        ),
        (
            (-1.0, 0.0),
            (0.0, limit),
            "full left at rest: full lock left",
        ),
        // (0.5, 1.0): arcade sides 1 and 1/3 → speed 2/3, turn −1/3 → a third of the lock.
        (
            (0.5, 1.0),
            (2.0 / 3.0, -limit / 3.0),
            "forward and a little right",
        ),
    ];
    for ((x, y), (speed, steer), what) in cases {
        s.stick('L', x, y);
        let d = s.step().drive;
        assert_close(d.left, speed, TOL, what);
        assert_close(d.right, speed, TOL, what);
        assert_close(d.steer.expect("steering"), steer, TOL, what);
    }
    s.mapper.set_steering(None);
    s.stick('L', 1.0, 0.0);
    let d = s.step().drive;
    assert_eq!(d.steer, None);
    assert_close(d.left, 1.0, TOL, "tracks again");
}
