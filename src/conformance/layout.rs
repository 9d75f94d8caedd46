//! The dispatch shape of conformance kernels and how invocations group into
//! subgroups, as the GPU reports it (never assumed).

use std::collections::BTreeMap;

use crate::target::SubgroupSize;

/// Workgroup size and count of every conformance dispatch.
#[derive(Clone, Copy, Debug)]
pub struct Dispatch {
    /// Invocations per workgroup: a multiple of every allowed subgroup size,
    /// with at least two subgroups of the largest size.
    pub workgroup_size: u32,
    /// Workgroups dispatched along x.
    pub workgroups: u32,
}

impl Dispatch {
    /// The dispatch used for a subgroup size range.
    pub fn for_sizes(sizes: SubgroupSize) -> Dispatch {
        Dispatch {
            workgroup_size: (2 * sizes.max()).max(64),
            workgroups: 2,
        }
    }

    /// Total invocations.
    pub fn invocations(self) -> u32 {
        self.workgroup_size * self.workgroups
    }
}

/// Words of per-invocation metadata every conformance kernel writes first:
/// `subgroup_invocation_id`, `subgroup_size`, `subgroup_id`.
pub const META_WORDS: u32 = 3;

/// One subgroup as observed: its size and the global invocation index of
/// each lane, in lane order.
#[derive(Clone, Debug)]
pub struct Subgroup {
    /// `subgroup_size` as its lanes read it.
    pub size: u32,
    /// `invocations[lane]` is the global invocation index of `lane`.
    pub invocations: Vec<u32>,
}

/// `(lane, subgroup_size, global invocation index)` of one invocation.
type Member = (u32, u32, u32);

/// Groups invocations into subgroups from the metadata words; an error
/// describes a layout that is not a set of full subgroups with distinct lanes.
pub fn subgroups(meta: &[u32], dispatch: Dispatch) -> Result<Vec<Subgroup>, String> {
    let mut groups: BTreeMap<(u32, u32), Vec<Member>> = BTreeMap::new();
    for g in 0..dispatch.invocations() {
        let at = (g * META_WORDS) as usize;
        let (lane, size, id) = (meta[at], meta[at + 1], meta[at + 2]);
        groups
            .entry((g / dispatch.workgroup_size, id))
            .or_default()
            .push((lane, size, g));
    }
    groups
        .into_iter()
        .map(|((workgroup, id), members)| {
            let size = members[0].1;
            if members.iter().any(|m| m.1 != size) {
                return Err(format!(
                    "subgroup {id} of workgroup {workgroup}: lanes disagree on subgroup_size"
                ));
            }
            if members.len() != size as usize {
                return Err(format!(
                    "subgroup {id} of workgroup {workgroup}: {} invocations share it but \
                     subgroup_size is {size}",
                    members.len()
                ));
            }
            let mut invocations = vec![u32::MAX; size as usize];
            for (lane, _, g) in members {
                match invocations.get_mut(lane as usize) {
                    Some(slot) if *slot == u32::MAX => *slot = g,
                    _ => {
                        return Err(format!(
                            "subgroup {id} of workgroup {workgroup}: lane id {lane} is out of \
                             range or repeated"
                        ));
                    }
                }
            }
            Ok(Subgroup { size, invocations })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISPATCH: Dispatch = Dispatch {
        workgroup_size: 8,
        workgroups: 1,
    };

    fn meta(rows: &[(u32, u32, u32)]) -> Vec<u32> {
        rows.iter().flat_map(|&(l, s, id)| [l, s, id]).collect()
    }

    #[test]
    fn groups_lanes_by_subgroup_id_in_lane_order() {
        let rows: Vec<_> = (0..8).map(|g| ((g + 1) % 4, 4, g / 4)).collect();
        let groups = subgroups(&meta(&rows), DISPATCH).unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].invocations, vec![3, 0, 1, 2]);
        assert_eq!(groups[1].invocations, vec![7, 4, 5, 6]);
    }

    #[test]
    fn rejects_repeated_lanes_and_short_subgroups() {
        let repeated: Vec<_> = (0..8).map(|g| (g % 2, 4, g / 4)).collect();
        assert!(
            subgroups(&meta(&repeated), DISPATCH)
                .unwrap_err()
                .contains("repeated")
        );
        let short: Vec<_> = (0..8).map(|g| (g % 4, 8, g / 4)).collect();
        assert!(
            subgroups(&meta(&short), DISPATCH)
                .unwrap_err()
                .contains("4 invocations")
        );
    }
}
