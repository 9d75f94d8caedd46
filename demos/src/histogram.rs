//! placeholder
use crate::Demo;
/// The demo.
pub struct Histogram;
impl Demo for Histogram {
    fn name(&self) -> &'static str {
        "histogram"
    }
    fn variants(&self) -> &'static [&'static str] {
        &[]
    }
    fn prepare<'c>(
        &self,
        _ctx: &'c crate::Ctx<'c>,
        v: &str,
    ) -> Result<Box<dyn crate::Prepared + 'c>, wavekit::Error> {
        Err(crate::unknown_variant(self, v))
    }
}
