//! What the native tests share: a WGSL source parsed and validated by
//! naga, with every capability (the lowering decides what it supports).

/// `source` parsed and validated; a failure panics with naga's report.
pub fn module(source: &str) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)));
    (module, info)
}
