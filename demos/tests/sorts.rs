//! `radix_sort` and `contact_sort` on lavapipe at sizes the command line
//! never asks for (not powers of two, below one tile, one past a tile),
//! each checked against the CPU reference by the demo itself.

use wavekit::runner::{AdapterChoice, Gpu};
use wavekit_demos::{Ctx, Demo, all};

fn lavapipe() -> Gpu {
    Gpu::open(&AdapterChoice::named("llvmpipe")).expect("lavapipe is installed by scripts/setup")
}

fn demo(name: &str) -> &'static dyn Demo {
    all()
        .into_iter()
        .find(|d| d.name() == name)
        .expect("a demo")
}

fn check(name: &str, sizes: &[usize]) {
    let gpu = lavapipe();
    let ctx = Ctx::new(&gpu, 0, 0);
    let demo = demo(name);
    for variant in demo.variants() {
        let prepared = demo.prepare(&ctx, variant).expect("prepares");
        for (seed, &n) in sizes.iter().enumerate() {
            if let Err(error) = prepared.run(n, seed as u64) {
                panic!("{name} {variant} n = {n}: {error}");
            }
        }
    }
}

#[test]
fn radix_sort_odd_sizes() {
    check(
        "radix_sort",
        &[
            1,
            3,
            255,
            256,
            257,
            1000,
            2047,
            2048,
            2049,
            3 * 2048 + 17,
            20_000,
        ],
    );
}

#[test]
fn contact_sort_odd_sizes() {
    check("contact_sort", &[1, 7, 31, 33, 255, 257, 1000, 4099]);
}

#[test]
fn unknown_variants_are_refused() {
    let gpu = lavapipe();
    let ctx = Ctx::new(&gpu, 0, 0);
    for name in ["radix_sort", "contact_sort"] {
        let error = demo(name).prepare(&ctx, "seg64").err().expect("refused");
        assert!(error.to_string().contains("variants"), "{error}");
    }
}
