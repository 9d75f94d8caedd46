//! Composer errors rendered the way naga renders its own: the message, the
//! file, line and column, the source line and a caret under the span.

use std::ops::Range;

/// A source span with its message, rendered against the user's file.
pub fn render(
    source: &str,
    file_name: &str,
    span: Range<usize>,
    message: &str,
    label: &str,
) -> String {
    render_as("error", source, file_name, span, message, label)
}

/// [`render`] with another severity (`warning`).
pub fn render_as(
    severity: &str,
    source: &str,
    file_name: &str,
    span: Range<usize>,
    message: &str,
    label: &str,
) -> String {
    let start = span.start.min(source.len());
    let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[start..]
        .find('\n')
        .map_or(source.len(), |i| start + i);
    let line_number = source[..start].matches('\n').count() + 1;
    let column = source[line_start..start].chars().count() + 1;
    let width = source[start..span.end.min(line_end).max(start)]
        .chars()
        .count()
        .max(1);
    let gutter = " ".repeat(line_number.to_string().len() + 1);
    format!(
        "{severity}: {message}\n{gutter}┌─ {file_name}:{line_number}:{column}\n{gutter}│\n\
         {line_number} │ {}\n{gutter}│ {}{} {label}\n",
        &source[line_start..line_end],
        " ".repeat(column - 1),
        "^".repeat(width),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_at_the_span() {
        let text = super::render(
            "a\nlet x = sg::nope(1);\n",
            "s.wgsl",
            10..18,
            "unknown op",
            "here",
        );
        assert_eq!(
            text,
            "error: unknown op\n  ┌─ s.wgsl:2:9\n  │\n2 │ let x = sg::nope(1);\n  │         ^^^^^^^^ here\n"
        );
    }
}
