//! How the command prints an error: one `error:` prefix. Diagnostics
//! rendered against a source (the composer's and naga's) already open with
//! `error:` and carry the file, line and caret; everything else is one line
//! that gets the prefix here.

use wavekit::Error;

/// The text to print on stderr for `error`, ending in one newline.
pub fn error_text(error: &Error) -> String {
    let text = error.to_string();
    let text = text.trim_end();
    if text.starts_with("error:") {
        format!("{text}\n")
    } else {
        format!("error: {text}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::error_text;
    use wavekit::Error;

    #[test]
    fn one_prefix() {
        let rendered = Error::Compose {
            rendered: "error: unknown op\n  ┌─ s.wgsl:2:9\n".into(),
        };
        assert_eq!(
            error_text(&rendered),
            "error: unknown op\n  ┌─ s.wgsl:2:9\n"
        );
        let plain = Error::Usage("--out needs a path".into());
        assert_eq!(error_text(&plain), "error: --out needs a path\n");
    }
}
