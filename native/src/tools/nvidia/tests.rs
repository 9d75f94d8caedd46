//! Tests of NVIDIA's tools: SASS parsing on a fixed `nvdisasm` listing, and
//! (with the pip wheels installed) assembling and disassembling PTX for
//! sm_80 and sm_90, ptxas's errors, and finding the tools.

use std::collections::BTreeMap;

use super::*;
use crate::error::NativeError;

/// A warp shuffle, a warp vote and a global store. `.target sm_80` so
/// that it assembles for both sm_80 and sm_90.
const TEST_PTX: &str = r#"
.version 7.8
.target sm_80
.address_size 64

.visible .entry k(
	.param .u64 p,
	.param .u32 n
)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;

	ld.param.u64 %rd1, [p];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
	setp.ne.u32 %p1, %r2, 0;
	vote.sync.all.pred %p2, %p1, -1;
	selp.u32 %r3, 1, 0, %p2;
	add.u32 %r4, %r3, %r2;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd3, %rd2, %rd3;
	st.global.u32 [%rd3], %r4;
	ret;
}
"#;

/// `nvdisasm -c` of two kernels assembled by ptxas 13.5.37 for sm_90
/// (plus the `.sectioninfo` line sm_80 listings have after `.section`):
/// `k` is [`TEST_PTX`]; `red` has a loop of `redux.sync`, a shuffle,
/// barriers around shared memory, a non-inlined `.func` call and an
/// `atom.global.add` (which ptxas turned into a warp-aggregated `REDG`).
const SNIPPET: &str = r#"	.target	sm_90

	.elftype	@"ET_EXEC"


//--------------------- .text.k                   --------------------------
	.section	.text.k,"ax",@progbits
	.align	128
        .global         k
        .type           k,@function
        .size           k,(.L_x_12 - k)
        .other          k,@"STO_CUDA_ENTRY STV_DEFAULT"
k:
.text.k:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R5, SR_TID.X ;
        /*0020*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0030*/                   ULDC.64 UR4, c[0x0][0x208] ;
.L_x_3:
        /*0040*/                   SHFL.BFLY PT, R0, R5, 0x1, 0x1f ;
        /*0050*/                   IMAD.WIDE.U32 R2, R5, 0x4, R2 ;
        /*0060*/                   ISETP.NE.U32.AND P0, PT, R0, RZ, PT ;
        /*0070*/                   VIADD R7, R0, 0x1 ;
.L_x_4:
        /*0080*/                   VOTE.ALL P0, P0 ;
        /*0090*/              @!P0 IADD3 R7, R0, RZ, RZ ;
        /*00a0*/                   STG.E desc[UR4][R2.64], R7 ;
.L_x_5:
        /*00b0*/                   EXIT ;
.L_x_0:
        /*00c0*/                   BRA `(.L_x_0);
        /*00d0*/                   NOP;
        /*00e0*/                   NOP;
        /*00f0*/                   NOP;
.L_x_12:


//--------------------- .text.red                 --------------------------
	.section	.text.red,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=8"
	.align	128
        .global         red
        .type           red,@function
        .size           red,(.L_x_11 - red)
        .other          red,@"STO_CUDA_ENTRY STV_DEFAULT"
red:
.text.red:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   IMAD.MOV.U32 R2, RZ, RZ, RZ ;
        /*0030*/                   ULDC.64 UR6, c[0x0][0x208] ;
        /*0040*/                   ULDC UR4, c[0x0][0x218] ;
.L_x_1:
        /*0050*/                   WARPSYNC.ALL ;
.L_x_8:
        /*0060*/                   REDUX.SUM UR5, R0 ;
        /*0070*/                   VIADD R0, R0, 0x1 ;
        /*0080*/                   ISETP.GE.U32.AND P0, PT, R0, UR4, PT ;
        /*0090*/                   MOV R3, UR5 ;
        /*00a0*/                   IMAD.IADD R2, R3, 0x1, R2 ;
        /*00b0*/              @!P0 BRA `(.L_x_1) ;
        /*00c0*/                   WARPSYNC.ALL ;
        /*00d0*/                   I2FP.F32.U32 R0, R2 ;
.L_x_9:
        /*00e0*/                   SHFL.BFLY PT, R2, R2, 0x10, 0x1f ;
        /*00f0*/                   S2UR UR5, SR_CgaCtaId ;
        /*0100*/                   UMOV UR4, 0x400 ;
        /*0110*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0120*/                   I2FP.F32.U32 R3, R2 ;
        /*0130*/                   ULEA UR4, UR5, UR4, 0x18 ;
        /*0140*/                   MOV R2, 0x1a0 ;
        /*0150*/                   FADD R0, R0, R3 ;
        /*0160*/                   STS [UR4], R0 ;
        /*0170*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0180*/                   LDS R3, [UR4+0x4] ;
        /*0190*/                   CALL.REL.NOINC `($red$helper) ;
        /*01a0*/                   S2R R4, SR_LANEID ;
.L_x_6:
        /*01b0*/                   REDUX.SUM UR5, R0 ;
        /*01c0*/                   LDC.64 R2, c[0x0][0x210] ;
.L_x_7:
        /*01d0*/                   VOTEU.ANY UR4, UPT, PT ;
        /*01e0*/                   UFLO.U32 UR4, UR4 ;
        /*01f0*/                   MOV R5, UR5 ;
        /*0200*/                   ISETP.EQ.U32.AND P0, PT, R4, UR4, PT ;
        /*0210*/               @P0 REDG.E.ADD.STRONG.GPU desc[UR6][R2.64], R5 ;
.L_x_10:
        /*0220*/                   EXIT ;
        .type           $red$helper,@function
        .size           $red$helper,(.L_x_11 - $red$helper)
$red$helper:
        /*0230*/                   VIADD R0, R3, 0x7 ;
        /*0240*/                   HFMA2.MMA R3, -RZ, RZ, 0, 0 ;
        /*0250*/                   RET.REL.NODEC R2 `(red) ;
.L_x_2:
        /*0260*/                   BRA `(.L_x_2);
        /*0270*/                   NOP;
        /*0280*/                   NOP;
.L_x_11:


//--------------------- SYMBOLS --------------------------

	.type		.nv.reservedSmem.offset0,@object
	.size		.nv.reservedSmem.offset0,0x4
"#;

fn counts(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
}

#[test]
fn parses_one_function_of_a_fixed_listing() {
    let k = sass_opcodes(SNIPPET, "k");
    assert_eq!(
        k,
        [
            "LDC",
            "S2R",
            "LDC.64",
            "ULDC.64",
            "SHFL.BFLY",
            "IMAD.WIDE.U32",
            "ISETP.NE.U32.AND",
            "VIADD",
            "VOTE.ALL",
            "IADD3",
            "STG.E",
            "EXIT",
        ]
    );

    let red = sass_opcodes(SNIPPET, "red");
    assert_eq!(red.len(), 38, "{red:?}");
    assert!(red.contains(&"BAR.SYNC.DEFER_BLOCKING".to_string()));
    assert!(red.contains(&"REDG.E.ADD.STRONG.GPU".to_string()));
    assert_eq!(
        count_mnemonics(&red),
        counts(&[
            ("BAR", 2),
            // The predicated loop branch; the padding self-loop is skipped.
            ("BRA", 1),
            ("CALL", 1),
            ("EXIT", 1),
            ("FADD", 1),
            ("HFMA2", 1),
            ("I2FP", 2),
            ("IMAD", 2),
            ("ISETP", 2),
            ("LDC", 2),
            ("LDS", 1),
            ("MOV", 3),
            ("REDG", 1),
            ("REDUX", 2),
            ("RET", 1),
            ("S2R", 2),
            ("S2UR", 1),
            ("SHFL", 1),
            ("STS", 1),
            ("UFLO", 1),
            ("ULDC", 2),
            ("ULEA", 1),
            ("UMOV", 1),
            ("VIADD", 2),
            ("VOTEU", 1),
            ("WARPSYNC", 2),
        ])
    );

    // Exact section names only: `re` is not a prefix match for `red`.
    assert!(sass_opcodes(SNIPPET, "re").is_empty());
    assert!(sass_opcodes(SNIPPET, "missing").is_empty());
    assert!(sass_opcodes("", "k").is_empty());
}

#[test]
fn reads_every_function_of_a_listing_in_one_pass() {
    let all = sass_functions(SNIPPET);
    assert_eq!(all.keys().collect::<Vec<_>>(), ["k", "red"]);
    for (name, opcodes) in &all {
        assert_eq!(*opcodes, sass_opcodes(SNIPPET, name), "{name}");
    }
    assert!(sass_functions("").is_empty());
}

#[test]
fn counts_by_base_mnemonic() {
    let ops: Vec<String> = ["SHFL.BFLY", "SHFL.IDX", "FADD", "BAR.SYNC.DEFER_BLOCKING"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        count_mnemonics(&ops),
        counts(&[("BAR", 1), ("FADD", 1), ("SHFL", 2)])
    );
}

/// Assembles [`TEST_PTX`], disassembles it and checks what ptxas made of
/// it. Needs the `nvidia-cuda-nvcc` and `nvidia-cuda-nvdisasm` wheels.
fn assemble_and_count(sm: u32) -> BTreeMap<String, usize> {
    let cubin = assemble(TEST_PTX, sm).expect("ptxas (pip install nvidia-cuda-nvcc)");
    assert!(cubin.starts_with(b"\x7fELF"), "a cubin is an ELF file");
    let sass = disassemble(&cubin).expect("nvdisasm (pip install nvidia-cuda-nvdisasm)");
    assert!(sass.contains(&format!(".target\tsm_{sm}")), "{sass}");
    let ops = sass_opcodes(&sass, "k");
    assert!(ops.contains(&"SHFL.BFLY".to_string()), "{ops:?}");
    assert!(ops.contains(&"VOTE.ALL".to_string()), "{ops:?}");
    count_mnemonics(&ops)
}

fn assert_counts(counts: &BTreeMap<String, usize>) {
    // One instruction each: ptxas 13.5 keeps the shuffle and the vote
    // inline (no `BRA.CONV` slow path here), and emits no real branch.
    for (mnemonic, n) in [("SHFL", 1), ("VOTE", 1), ("STG", 1), ("EXIT", 1)] {
        assert_eq!(counts.get(mnemonic), Some(&n), "{mnemonic} in {counts:?}");
    }
    for absent in ["BRA", "NOP", "CALL"] {
        assert_eq!(counts.get(absent), None, "{absent} in {counts:?}");
    }
}

#[test]
fn assembles_and_disassembles_for_sm80() {
    assert_counts(&assemble_and_count(80));
}

#[test]
fn assembles_and_disassembles_for_sm90() {
    assert_counts(&assemble_and_count(90));
}

#[test]
fn assembler_errors_carry_ptxas_stderr() {
    let bad = TEST_PTX.replace("st.global.u32", "st.global.bogus");
    match assemble(&bad, 90) {
        Err(NativeError::Tool { tool, message }) => {
            assert_eq!(tool, "ptxas");
            assert!(message.contains("-arch=sm_90"), "{message}");
            assert!(message.contains("error"), "{message}");
        }
        other => panic!("expected a ptxas error, got {other:?}"),
    }
}

#[test]
fn finds_the_installed_tools() {
    // The CI installs the wheels; these are the real lookups.
    for path in [ptxas_path(), nvdisasm_path(), libdevice_path()] {
        let path = path.expect("NVIDIA pip wheels installed");
        assert!(path.is_file(), "{}", path.display());
    }
}
