//! The user's text rewritten in place, offset for offset: import lines
//! become blank (the first may carry the `enable` directives the library
//! needs), and each call site becomes a name padded with spaces to the
//! call's length, the instance's mangled name or, when that is longer, its
//! forwarder's. Every edit replaces a span by ASCII of the same length, so
//! every byte of the user's code keeps its offset and the text stays UTF-8;
//! naga's diagnostics on the composed text so point at the user's lines.

use super::forward::Forwarders;
use super::scan::{CallSite, Import, SpanError};
use crate::error::Error;
use crate::expand::Instance;

/// The user's text being rewritten, and the forwarders its calls need.
#[derive(Debug)]
pub(super) struct Rewrite {
    /// The user's bytes, edited span by span.
    text: Vec<u8>,
    forwarders: Forwarders,
}

impl Rewrite {
    /// `source` with every import line of `imports` (found in `source`)
    /// blanked to spaces, its line breaks kept.
    pub(super) fn new(source: &str, imports: &[Import]) -> Self {
        let mut text = source.as_bytes().to_vec();
        for import in imports {
            text[import.span.clone()].fill(b' ');
        }
        Rewrite {
            text,
            forwarders: Forwarders::default(),
        }
    }

    /// Replaces the call `site` (of the source) by the name that calls
    /// `instance`, its resolution, padded with spaces to the call's length,
    /// and returns that name: the mangled name if it fits, else the
    /// instance's forwarder (declared on first use). An error at the call,
    /// and the text unchanged, if not even the forwarder's name fits.
    pub(super) fn call(
        &mut self,
        site: &CallSite,
        instance: &Instance,
    ) -> Result<String, SpanError> {
        let width = site.span.len();
        let mangled = instance.mangled_name();
        let name = if mangled.len() <= width {
            mangled
        } else {
            self.forwarders.name(instance)
        };
        if name.len() > width {
            return Err(SpanError {
                span: site.span.clone(),
                message: format!(
                    "this call is too short to rewrite: write the mangled name `{}`",
                    instance.mangled_name()
                ),
                label: "in this call".into(),
            });
        }
        self.text[site.span.clone()].copy_from_slice(format!("{name:width$}").as_bytes());
        Ok(name)
    }

    /// Writes the library's `directives` (`enable ...;` lines, possibly
    /// none) on one line into the first import line's blanked span. Nothing
    /// to do when there are none or `source` already says `enable f16`. An
    /// error naming `file_name` (no span) when there is no import line or
    /// the first is shorter than the directives.
    pub(super) fn enable(
        &mut self,
        directives: &str,
        source: &str,
        imports: &[Import],
        file_name: &str,
    ) -> Result<(), Error> {
        if directives.is_empty() || source.contains("enable f16") {
            return Ok(());
        }
        let wanted = directives.trim_end();
        let slot = imports.first().filter(|im| im.span.len() >= wanted.len());
        let Some(import) = slot else {
            return Err(Error::Compose {
                rendered: format!(
                    "error: the library needs `{wanted}` at the top of `{file_name}`\n"
                ),
            });
        };
        let line = wanted.replace('\n', " ");
        let start = import.span.start;
        self.text[start..start + line.len()].copy_from_slice(line.as_bytes());
        Ok(())
    }

    /// The composed WGSL and the length of its user part: the rewritten
    /// text, a line break, the library's `declarations`, a line break, then
    /// the forwarders.
    pub(super) fn finish(self, declarations: &str) -> (String, usize) {
        let text = String::from_utf8(self.text).expect("ASCII replaced whole spans");
        let user_len = text.len();
        let wgsl = format!("{text}\n{declarations}\n{}", self.forwarders.wgsl());
        (wgsl, user_len)
    }
}
