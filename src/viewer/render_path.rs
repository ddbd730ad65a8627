//! Which way the 3D views are drawn: kiss3d's full PBR pipeline, or a cheap path for CPU
//! (software) renderers.
//!
//! On Mesa's llvmpipe/lavapipe every shaded pixel costs CPU time, and kiss3d's PBR material
//! with cascaded soft shadows cost ~300 ms for the station's half-size front view alone on
//! a 2-core machine (~3 frames/s). The fast path draws the same scene graph with
//! [`FlatMaterial`](super::flat_material::FlatMaterial) (Lambert diffuse, no specular, no
//! shadow pass), which keeps the cues an operator reads — face brightness by the sun's angle,
//! the material colours, the terrain grid — at a fraction of the cost. A GPU keeps the full
//! path: nothing there gets worse.

use std::fmt;
use std::str::FromStr;

use kiss3d::context::Context;
use kiss3d::window::Window;

/// How the 3D views are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenderPath {
    /// kiss3d's own material: PBR shading, shadows, antialiasing on the main view.
    Full,
    /// Flat Lambert shading, no shadows, no antialiasing: for CPU (software) renderers.
    Fast,
}

impl RenderPath {
    /// The path for an adapter of type `device`: [`RenderPath::Fast`] on a CPU (software)
    /// adapter, [`RenderPath::Full`] on anything else (discrete, integrated or virtual GPU,
    /// or an adapter that does not say), so a GPU never loses its shading.
    pub fn for_device(device: wgpu::DeviceType) -> RenderPath {
        match device {
            wgpu::DeviceType::Cpu => RenderPath::Fast,
            wgpu::DeviceType::DiscreteGpu
            | wgpu::DeviceType::IntegratedGpu
            | wgpu::DeviceType::VirtualGpu
            | wgpu::DeviceType::Other => RenderPath::Full,
        }
    }

    /// The path for kiss3d's adapter ([`RenderPath::Full`] before kiss3d has a GPU context).
    pub fn detect() -> RenderPath {
        if Context::is_initialized() {
            RenderPath::for_device(Context::get().adapter.get_info().device_type)
        } else {
            RenderPath::Full
        }
    }

    /// `chosen` if given (the `--render-path` option), else the adapter's
    /// ([`RenderPath::detect`]).
    pub fn or_detect(chosen: Option<RenderPath>) -> RenderPath {
        chosen.unwrap_or_else(RenderPath::detect)
    }

    /// Prepares a window or off-screen surface that draws this path: the flat material
    /// ignores shadow maps, so the fast path does not render them.
    pub fn configure(self, window: &mut Window) {
        if self == RenderPath::Fast {
            window.set_shadows_enabled(false);
        }
    }

    /// The option's spelling.
    pub fn name(self) -> &'static str {
        match self {
            RenderPath::Full => "full",
            RenderPath::Fast => "fast",
        }
    }
}

impl fmt::Display for RenderPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--render-path` value that is neither `full` nor `fast`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown render path '{0}' (expected full or fast)")]
pub struct UnknownRenderPath(
    /// The value given.
    pub String,
);

impl FromStr for RenderPath {
    type Err = UnknownRenderPath;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "full" => Ok(RenderPath::Full),
            "fast" => Ok(RenderPath::Fast),
            other => Err(UnknownRenderPath(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_cpu_adapter_gets_the_fast_path() {
        assert_eq!(
            RenderPath::for_device(wgpu::DeviceType::Cpu),
            RenderPath::Fast
        );
        for gpu in [
            wgpu::DeviceType::DiscreteGpu,
            wgpu::DeviceType::IntegratedGpu,
            wgpu::DeviceType::VirtualGpu,
            wgpu::DeviceType::Other,
        ] {
            assert_eq!(RenderPath::for_device(gpu), RenderPath::Full, "{gpu:?}");
        }
    }

    #[test]
    fn a_chosen_path_wins_over_detection() {
        assert_eq!(
            RenderPath::or_detect(Some(RenderPath::Fast)),
            RenderPath::Fast
        );
        assert_eq!(
            RenderPath::or_detect(Some(RenderPath::Full)),
            RenderPath::Full
        );
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        for p in [RenderPath::Full, RenderPath::Fast] {
            assert_eq!(p.name().parse::<RenderPath>(), Ok(p));
        }
        assert_eq!(
            "gpu".parse::<RenderPath>(),
            Err(UnknownRenderPath("gpu".into()))
        );
    }
}
