//! `treadsim traffic`: runs seed 002's traffic controller headless and prints its collisions
//! and its cost per step — the scene's `[[traffic]]` groups, or one group of `--agents` over
//! an area.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use nalgebra::Point2;
use treadsim::control::traffic::{Avoidance, Traffic, TrafficScratch};
use treadsim::scene::{Scene, TrafficSpec};

/// Arguments of `treadsim traffic`.
#[derive(clap::Args)]
pub struct TrafficArgs {
    /// Scene file: its `[[traffic]]` groups, or the area for --agents.
    #[arg(long, default_value = "scenes/flat.toml")]
    pub scene: PathBuf,
    /// One group of this many agents instead of the scene's groups.
    #[arg(long)]
    pub agents: Option<usize>,
    /// The group's area for --agents: x_min,y_min,x_max,y_max, m [default: the scene's
    /// bounds less 1 m].
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub area: Option<Vec<f64>>,
    /// Agent box for --agents: length,width,height, m.
    #[arg(long, value_delimiter = ',', default_value = "0.5,0.4,1.0")]
    pub size: Vec<f64>,
    /// Cruise speed range for --agents: slowest,fastest, m/s.
    #[arg(long, value_delimiter = ',', default_value = "0.3,1.0")]
    pub speed: Vec<f64>,
    /// Seed of the --agents group.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Simulated seconds.
    #[arg(long, allow_negative_numbers = true, default_value_t = 60.0)]
    pub seconds: f64,
    /// Time step, s (the simulation's default).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.002)]
    pub dt: f64,
    /// Avoidance: predictive (ours), seed (seed 002's rule) or off.
    #[arg(long, default_value = "predictive")]
    pub avoid: String,
    /// The same as --avoid off.
    #[arg(long)]
    pub no_avoid: bool,
    /// Print one JSON object per group instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Agents of the default group on a scene without traffic.
const DEFAULT_AGENTS: usize = 20;

/// Runs `treadsim traffic`.
pub fn traffic_command(a: &TrafficArgs) -> anyhow::Result<()> {
    let avoidance = match (a.no_avoid, a.avoid.as_str()) {
        (true, _) | (false, "off") => Avoidance::Off,
        (false, "seed") => Avoidance::Seed,
        (false, "predictive") => Avoidance::Predictive,
        (false, other) => bail!("--avoid must be predictive, seed or off, not '{other}'"),
    };
    if !(a.seconds.is_finite() && a.seconds > 0.0 && a.seconds <= 3600.0) {
        bail!(
            "--seconds must be greater than 0 and at most 3600, got {}",
            a.seconds
        );
    }
    if !(a.dt.is_finite() && (1e-4..=0.1).contains(&a.dt)) {
        bail!("--dt must be from 0.0001 to 0.1 s, got {}", a.dt);
    }
    let scene = Scene::load(&a.scene)?;
    let groups = match a.agents {
        Some(count) => vec![agents_group(a, &scene, count)?],
        None if scene.traffic.is_empty() => {
            // A scene without traffic still shows what the controller does: a default group.
            eprintln!(
                "{} has no [[traffic]] groups: running a default group of {DEFAULT_AGENTS} \
                 agents over the scene (--agents N for another)",
                a.scene.display()
            );
            vec![agents_group(a, &scene, DEFAULT_AGENTS)?]
        }
        None => scene.traffic.clone(),
    };
    let steps = (a.seconds / a.dt).round() as u64;
    for spec in &groups {
        let mut traffic = Traffic::new(spec, avoidance).context("placing the traffic")?;
        let mut scratch = TrafficScratch::default();
        let mut left = 0usize;
        let start = Instant::now();
        for _ in 0..steps {
            traffic.step(a.dt, &[], &mut scratch);
        }
        let wall = start.elapsed().as_secs_f64();
        for agent in traffic.agents() {
            let p = agent.state.position;
            if p.x < spec.area_min.x
                || p.x > spec.area_max.x
                || p.y < spec.area_min.y
                || p.y > spec.area_max.y
            {
                left += 1;
            }
        }
        let stats = traffic.stats();
        let us = wall / steps.max(1) as f64 * 1e6;
        if a.json {
            println!(
                "{{\"group\":{:?},\"agents\":{},\"avoidance\":{:?},\"seconds\":{},\"dt\":{},\"steps\":{},\"collisions\":{},\"edge_holds\":{},\"outside_area\":{},\"us_per_step\":{:.2}}}",
                spec.name, spec.count, format!("{avoidance:?}").to_lowercase(), a.seconds, a.dt, steps,
                stats.collisions, stats.edge_holds, left, us
            );
        } else {
            println!(
                "traffic '{}': {} agents, {:.1} x {:.1} m, {:?} avoidance, {} s at dt {} s",
                spec.name,
                spec.count,
                spec.area_max.x - spec.area_min.x,
                spec.area_max.y - spec.area_min.y,
                avoidance,
                a.seconds,
                a.dt
            );
            println!(
                "  collisions {}  edge holds {}  outside the area {}  cost {:.1} µs/step ({:.0}x real time)",
                stats.collisions,
                stats.edge_holds,
                left,
                us,
                a.dt * 1e6 / us.max(1e-9)
            );
        }
    }
    Ok(())
}

/// One group of `count` agents over `--area` or the scene's bounds less 1 m.
fn agents_group(a: &TrafficArgs, scene: &Scene, count: usize) -> anyhow::Result<TrafficSpec> {
    if a.size.len() != 3 || a.speed.len() != 2 || a.area.as_ref().is_some_and(|v| v.len() != 4) {
        bail!("--area takes 4 numbers, --size 3 and --speed 2, comma-separated");
    }
    let (min, max) = match &a.area {
        Some(v) => (Point2::new(v[0], v[1]), Point2::new(v[2], v[3])),
        None => {
            let b = &scene.bounds;
            (
                Point2::new(b.min[0] + 1.0, b.min[1] + 1.0),
                Point2::new(b.max[0] - 1.0, b.max[1] - 1.0),
            )
        }
    };
    if !(max.x > min.x && max.y > min.y) {
        bail!("--area must be x_min,y_min,x_max,y_max with max > min");
    }
    if a.size
        .iter()
        .any(|s| !(s.is_finite() && *s > 0.0 && *s <= 10.0))
    {
        bail!("--size values must be in (0, 10] m");
    }
    if !(a.speed[0] >= 0.0 && a.speed[1] >= a.speed[0] && a.speed[1] <= 5.0) {
        bail!("--speed must be slowest,fastest with 0 ≤ slowest ≤ fastest ≤ 5 m/s");
    }
    let spec = TrafficSpec {
        name: "agents".into(),
        count,
        area_min: min,
        area_max: max,
        speed: (a.speed[0], a.speed[1]),
        seed: a.seed,
        size: [a.size[0], a.size[1], a.size[2]],
    };
    let room = spec.start_lattice().room();
    if count == 0 || count > room {
        bail!(
            "{count} agents of radius {:.2} m do not fit in {:.1} x {:.1} m (room for {room}); give a larger --area or a smaller --size",
            spec.radius(),
            max.x - min.x,
            max.y - min.y
        );
    }
    Ok(spec)
}
