//! Structures responsible for rendering elements other than kiss3d's meshes.

pub use self::dof::{DepthOfFieldMode, Dof, DofSettings};
#[cfg(feature = "egui")]
pub use self::egui_renderer::EguiRenderer;
pub use self::ibl::EnvironmentMap;
pub use self::point_renderer2d::PointRenderer2d;
pub use self::point_renderer3d::PointRenderer3d;
pub use self::polyline_renderer2d::{Polyline2d, PolylineRenderer2d};
pub use self::polyline_renderer3d::{Polyline3d, PolylineRenderer3d};
pub use self::raytracer::{RayBackend, RayTracer, RayTracerPreset};
pub use self::reflection_probe::{
    CubeFaceCamera, ProbeCapture, ReflectionProbe, ReflectionProbes, MAX_PROBES,
};
pub(crate) use self::reflector::ReflectorOit;
pub use self::reflector::{MirrorCamera, Reflector};
pub use self::renderer::Renderer3d;
pub use self::skybox::Skybox;
pub use self::ssao::{Ssao, SsaoSettings};
pub use self::ssr::{Ssr, SsrMaterial, SsrSettings};
pub use self::timings::RenderTimings;
pub use self::transmission::{Transmission, TransmissionBlurQuality, TransmissionSettings};

mod dof;
#[cfg(feature = "egui")]
mod egui_renderer;
mod ibl;
pub mod point_renderer2d;
pub mod point_renderer3d;
pub mod polyline_renderer2d;
pub mod polyline_renderer3d;
pub mod raytracer;
pub mod reflection_probe;
pub mod reflector;
mod renderer;
mod skybox;
mod ssao;
mod ssr;
pub mod timings;
mod transmission;
