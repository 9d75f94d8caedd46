//! Fuzz target (d): what `wavekit run` parses — its command line (through
//! clap), `--workgroups`, `--bind` and `--out` specs and `.npy` files — on
//! arbitrary input: a value or a usage error, never a panic. The first byte
//! of an input picks the parser (`a` arguments, one per line; `b` a bind
//! spec, `G:B=FILE` or `G:B=out:TYPE:COUNT` in any group; `o` an out spec,
//! `G:B=FILE` or a plain file; `w` workgroups; `n` a `.npy` file); the
//! corpus is
//! `tests/fuzz/corpus/run/` and the driver `tests/fuzz/driver.rs`, both at
//! the workspace root.

#[path = "../../../tests/fuzz/driver.rs"]
mod driver;

use std::path::Path;

use clap::Parser;

use super::Cli;
use super::run_inputs::{Out, npy_bytes, parse_bind, parse_out, parse_workgroups};

const DICTIONARY: &[&str] = &[
    "\n--bind\n",
    "\n--workgroups\n",
    "\n--out\n",
    "\n--entry\n",
    "\n--backend\n",
    "\n--device\n",
    "0:0=",
    "1:0=",
    "3:7=",
    "4294967296:0=",
    "out:",
    ":u32:",
    ":f64:",
    "18446744073709551615",
    "4294967296",
    "-1",
    ",",
    "=",
    ":",
    "'descr': '<u4'",
    "'shape': (",
    "'fortran_order': True",
    "\u{93}NUMPY",
    "<f8",
    "|u1",
    ">u4",
];

fn check(input: &[u8]) -> Result<(), String> {
    let Some((&mode, rest)) = input.split_first() else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(rest);
    match mode {
        b'n' => {
            if let Ok((data, _)) = npy_bytes(rest, "fuzz.npy")
                && data.len() > rest.len()
            {
                return Err(format!(
                    "{} bytes of data from a {}-byte file",
                    data.len(),
                    rest.len()
                ));
            }
        }
        b'b' => {
            if let Err(e) = parse_bind(&text) {
                let _ = e.to_string();
            }
        }
        b'o' => match parse_out(Path::new(&*text)) {
            Ok(Out::Slot { path, .. })
                if path.as_os_str().is_empty() || !text.ends_with(path.to_str().unwrap_or("")) =>
            {
                return Err(format!("`{text}` parsed to the file {path:?}"));
            }
            Ok(_) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        },
        b'w' => {
            let _ = parse_workgroups(&text);
        }
        _ => {
            let args = std::iter::once("wavekit")
                .chain(std::iter::once("run"))
                .chain(text.split('\n'));
            if let Err(e) = Cli::try_parse_from(args) {
                let _ = e.render().to_string();
            }
        }
    }
    Ok(())
}

#[test]
fn run_inputs_never_panic() {
    driver::fuzz(
        &driver::Target {
            name: "run",
            corpus: concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fuzz/corpus/run"),
            short_runs: 30000,
            dictionary: DICTIONARY,
            generate: None,
        },
        check,
    );
}

/// Groups other than 0 are parsed (the runner binds any group); an
/// `--out` is a slot only when it starts with `G:B=`.
#[test]
fn bind_and_out_specs_take_any_group() {
    let bind = parse_bind("1:0=keys.npy").expect("group 1");
    assert_eq!((bind.group, bind.binding), (1, 0));
    assert_eq!(
        parse_out(Path::new("1:0=sorted.npy")).expect("a slot"),
        Out::Slot {
            group: 1,
            binding: 0,
            path: Path::new("sorted.npy")
        }
    );
    for plain in ["sorted.npy", "a=b.npy", "x:1=y.npy", "1:=y.npy"] {
        assert_eq!(
            parse_out(Path::new(plain)).expect("a plain file"),
            Out::Next(Path::new(plain))
        );
    }
    let error = parse_out(Path::new("4294967296:0=x.npy")).expect_err("beyond u32");
    assert!(error.to_string().contains("beyond 2^32 - 1"), "{error}");
    let error = parse_out(Path::new("1:0=")).expect_err("no file");
    assert!(error.to_string().contains("no file after `=`"), "{error}");
}

/// `count * element size` overflowed (a panic in debug builds, a wrong
/// size in release ones) before `parse_bind` checked it.
#[test]
fn an_output_count_whose_bytes_overflow_is_refused() {
    let error = parse_bind("0:0=out:u64:18446744073709551615").expect_err("overflow");
    assert!(
        error.to_string().contains("more than 2^64 bytes"),
        "{error}"
    );
}

/// npyz itself fails such a file ("failed to fill whole buffer"); the
/// check before it names the shape and the file's size.
#[test]
fn an_npy_header_claiming_more_than_the_file_holds_is_refused() {
    let header = "{'descr': '<u4', 'fortran_order': False, 'shape': (1152921504606846976,), }";
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    let padded = format!("{header:<117}\n");
    bytes.extend_from_slice(&(padded.len() as u16).to_le_bytes());
    bytes.extend_from_slice(padded.as_bytes());
    bytes.extend_from_slice(&[1, 0, 0, 0]);
    let error = npy_bytes(&bytes, "big.npy").expect_err("the shape is a lie");
    assert!(error.to_string().contains("needs more than"), "{error}");
}

/// Found by this target: npyz multiplied a 2-D shape `(4, 2^64 - 1)`
/// without an overflow check and panicked (debug builds).
#[test]
fn an_npy_shape_whose_product_overflows_is_refused() {
    let bytes =
        include_bytes!("../../../tests/fuzz/corpus/run/regress-01-npy-shape-product-overflow");
    let error = npy_bytes(&bytes[1..], "wide.npy").expect_err("overflow");
    assert!(
        error.to_string().contains("more than 2^64 elements"),
        "{error}"
    );
}

/// Found by this target's long run: a dimension written as an expression
/// (`18446744073709551615-1`) slipped past the shape check and npyz
/// overflowed again; a shape that is not a tuple of integers is refused.
#[test]
fn an_npy_shape_that_is_not_integers_is_refused() {
    let bytes = include_bytes!("../../../tests/fuzz/corpus/run/regress-02-npy-shape-expression");
    let error = npy_bytes(&bytes[1..], "odd.npy").expect_err("not integers");
    assert!(
        error.to_string().contains("not a tuple of integers"),
        "{error}"
    );
}
