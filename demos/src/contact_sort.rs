//! placeholder
use crate::Demo;
/// The demo.
pub struct ContactSort;
impl Demo for ContactSort {
    fn name(&self) -> &'static str {
        "contact_sort"
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
