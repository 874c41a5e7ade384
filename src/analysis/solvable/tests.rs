//! Unit tests of the solver's parts (the integration tests check whole runs).

use super::*;
use crate::geometry::pagoda::Cut;
use crate::observe::Silent;

/// A fixed sequence of 64-bit keys (splitmix64).
fn keys(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) | 1
        })
        .collect()
}

#[test]
fn key_filter_holds_every_key_and_few_others() {
    let held = keys(1, 10_000);
    let f = KeyFilter::new(held.iter().copied());
    assert!(held.iter().all(|&k| f.may_hold(k)));
    let others = keys(2, 100_000);
    let false_positives = others.iter().filter(|&&k| f.may_hold(k)).count();
    // 10,000 bits set of 262,144: about 3.8% of other keys pass.
    assert!(false_positives < 6_000, "{false_positives} false positives");
    assert!(false_positives > 1_000, "{false_positives} false positives");
}

/// Every child (and parent) of every position of tri:5, through `Pruner`'s `i16` lanes,
/// against the weights summed plainly: a cut in each lane of two blocks, one of them
/// with large weights (near the limit) that must not wrap.
#[test]
fn pruner_lanes_match_plain_weights() {
    let b = Board::from_spec("tri:5").unwrap();
    let n = b.holes();
    let cuts: Vec<Cut> = (0..LANE + 3)
        .map(|k| {
            let big = if k == 0 { 200 } else { 1 };
            Cut {
                weights: (0..n)
                    .map(|h| big * (((h * 7 + k * 3) % 9) as i64 - 4))
                    .collect(),
                threshold: (k as i64 % 5) - 2,
            }
        })
        .collect();
    let total: i64 = cuts[0].weights.iter().map(|w| w.abs()).sum();
    assert!(total > 1_000 && total < LANE_LIMIT);
    let p = Pruner::new(&b, &cuts).expect("the cuts fit");
    assert_eq!(p.blocks, 2);
    let weight = |c: &Cut, pos: u64| -> i64 {
        (0..n)
            .filter(|&h| pos >> h & 1 == 1)
            .map(|h| c.weights[h])
            .sum()
    };
    let chunks = n.div_ceil(8);
    for pos in 0..1u64 << n {
        let s = p.slack(pos, chunks);
        for (j, jump) in b.jumps().iter().enumerate() {
            let (f, o, t) = (1u64 << jump.from, 1u64 << jump.over, 1u64 << jump.to);
            if pos & f != 0 && pos & o != 0 && pos & t == 0 {
                let child = pos ^ f ^ o ^ t;
                let plain = cuts.iter().all(|c| weight(c, child) >= c.threshold);
                assert_eq!(p.keeps(&s, j, false), plain, "{pos:b} jump {j}");
            }
            if pos & f == 0 && pos & o == 0 && pos & t != 0 {
                let parent = pos ^ f ^ o ^ t;
                let plain = cuts.iter().all(|c| weight(c, parent) >= c.threshold);
                assert_eq!(p.keeps(&s, j, true), plain, "{pos:b} un-jump {j}");
            }
        }
    }
}

#[test]
fn cuts_too_heavy_for_the_lanes_are_left_out() {
    let b = Board::from_spec("tri:5").unwrap();
    let heavy = Cut {
        weights: vec![1_000; b.holes()],
        threshold: 0,
    };
    assert!(Pruner::new(&b, &[heavy]).is_none());
}

#[test]
fn distinct_keeps_each_key_once() {
    for n in [0, 100, 10_000] {
        // Keys with many repeats, and the empty board (zero) among them.
        let mut v: Vec<u64> = keys(3, n).iter().map(|k| k % 997).collect();
        v.extend([0, 0]);
        let want: std::collections::BTreeSet<u64> = v.iter().copied().collect();
        distinct(&mut v, 64, &mut Vec::new());
        let got: std::collections::BTreeSet<u64> = v.iter().copied().collect();
        assert_eq!(got, want);
        assert_eq!(v.len(), want.len(), "{n} keys: a repeat is left");
    }
}

/// Layers built with packed keys ([`Keys`], boards of up to 40 holes) and with whole
/// positions give the same answers: the meeting, the full sweep (`--reachable`), and
/// a goal that is not the start's complement.
#[test]
fn packed_and_whole_keys_solve_alike() {
    let opts = SolveOptions::default();
    for (spec, start, finish) in [
        ("tri:6", None, "any"),
        ("tri:6", Some("c3"), "a1"),
        ("tri:7", None, "any"),
        ("english", None, "d4"),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let start = start.map_or(b.default_start(), |h| {
            b.start_with_empty(&[b.hole(h).unwrap()])
        });
        let finish = Finish::parse(&b, Some(finish)).unwrap();
        let packed: Solver<u64> = Solver::new(&b, start, finish, true);
        assert!(packed.keys.0.is_some(), "{spec} fits packed keys");
        let mut whole: Solver<u64> = Solver::new(&b, start, finish, true);
        whole.keys = Keys(None);
        let want = whole.solvable_meet(&opts).unwrap();
        assert!(want.wins > 0 || spec != "english", "{spec}");
        assert_eq!(packed.solvable_meet(&opts).unwrap(), want, "{spec}");
        if spec == "tri:6" {
            assert_eq!(
                packed.solvable(&opts).unwrap(),
                whole.solvable(&opts).unwrap()
            );
        }
    }
}

/// A goal whose complement is the start moved by a symmetry `t` outside `H` (french
/// d2 to d6, tri:6 a2 to a5: a reflection) meets in the middle mirrored through `t`
/// ([`Solver::with_mirror`]), with the answers of the two-sided meeting.
#[test]
fn mirrors_by_a_symmetry_meet_as_two_sides_do() {
    let opts = SolveOptions::default();
    let setup = |spec: &str, hole: &str, finish: &str| {
        let b = Board::from_spec(spec).unwrap();
        let start = b.start_with_empty(&[b.hole(hole).unwrap()]);
        let finish = Finish::parse(&b, Some(finish)).unwrap();
        (b, start, finish)
    };
    // Which meetings are mirrored, and by what.
    let mirror = |spec: &str, hole: &str, finish: &str| {
        let (b, start, finish) = setup(spec, hole, finish);
        let s: Solver<u64> = Solver::new(&b, start, finish, true);
        match &s.mirror {
            Mirror::No => "no".to_string(),
            Mirror::Complement => "complement".to_string(),
            Mirror::Through(t, _) => b.hole_name(t.perm()[b.hole(hole).unwrap()]),
        }
    };
    assert_eq!(mirror("english", "d4", "d4"), "complement");
    assert_eq!(mirror("french", "d2", "d6"), "d6");
    assert_eq!(mirror("english", "c1", "c7"), "c7");
    assert_eq!(mirror("tri:5", "a1", "c5"), "no");
    // The same answers as the two-sided meeting, for `solvable` and for hints.
    for (spec, hole, finish) in [
        ("tri:5", "a2", "d5"),
        ("tri:6", "a2", "a5"),
        ("tri:6", "a3", "d6"),
    ] {
        for fix_start in [true, false] {
            let (b, start, finish) = setup(spec, hole, finish);
            let mirrored: Solver<u64> = Solver::new(&b, start, finish, fix_start);
            assert!(
                matches!(mirrored.mirror, Mirror::Through(..)),
                "{spec} {hole}"
            );
            let mut plain: Solver<u64> = Solver::new(&b, start, finish, fix_start);
            plain.mirror = Mirror::No;
            if fix_start {
                let want = plain.solvable_meet(&opts).unwrap();
                assert!(want.wins > 0, "{spec} {hole}");
                assert_eq!(
                    mirrored.solvable_meet(&opts).unwrap(),
                    want,
                    "{spec} {hole}"
                );
                // Without links the back pass cuts parents by the mirrored cuts.
                let mut probed: Solver<u64> = Solver::new(&b, start, finish, fix_start);
                probed.link_cache = 0;
                assert_eq!(probed.solvable_meet(&opts).unwrap(), want, "{spec} {hole}");
            }
            // Without `whole`, a mirrored table holds the start and its children.
            for whole in [false, true] {
                let (got, want) = (
                    mirrored.table(&opts, whole).unwrap(),
                    plain.table(&opts, whole).unwrap(),
                );
                let n = if whole { want.len() } else { 2 };
                assert_eq!(got[..n], want[..n], "{spec} {hole} {fix_start} {whole}");
            }
        }
    }
}

/// The `N` pass along the links that the back pass records, and by [`exchange`], gives
/// what probing the layers gives: solvable counts, wins and the first jumps' `W` (a hint
/// from the start), in games of an odd (english, tri:5) and an even (rect-diag) number of
/// jumps.
#[test]
fn links_and_probes_count_alike() {
    let opts = SolveOptions::default();
    for (spec, finish) in [
        ("english", "d4"),
        ("tri:5", "a1"),
        ("boards/rect-diag.txt", "a1"),
    ] {
        let b = Board::from_spec(&format!("{}/{spec}", env!("CARGO_MANIFEST_DIR")))
            .or_else(|_| Board::from_spec(spec))
            .unwrap();
        let finish = Finish::parse(&b, Some(finish)).unwrap();
        let start = b.default_start();
        // Links everywhere the solvable layers are large enough, or only into the
        // small forward layers (english: the first 9 or so), against none.
        let solver = |fix_start: bool, cache: usize| {
            let mut s: Solver<u64> = Solver::new(&b, start, finish, fix_start);
            s.link_cache = cache;
            s
        };
        let links = |s: &Solver<u64>| match s.meet(&opts, &Silent) {
            Ok(Meet::Half(_, _, links)) => (
                links.iter().skip(1).filter(|l| l.is_some()).count(),
                links.len() - 1,
            ),
            _ => panic!("{spec}: a half meeting"),
        };
        let (all, mixed) = (usize::MAX, 256 << 10);
        let (linked, layers) = links(&solver(true, all));
        assert!(
            linked > layers / 2,
            "{spec}: {linked} of {layers} layers linked"
        );
        if spec == "english" {
            let (some, _) = links(&solver(true, mixed));
            assert!(some > 0 && some < linked, "{spec}: {some} of {linked}");
        }
        // Probes only, or the exchange wherever there is no link, in one group or in
        // groups of a batch of units.
        let probed = |fix_start: bool| {
            let mut s = solver(fix_start, 0);
            s.exchange_from = usize::MAX;
            s
        };
        let exchanged = |fix_start: bool, bytes: usize| {
            let mut s = solver(fix_start, 0);
            s.exchange_from = 0;
            s.exchange_bytes = bytes;
            s
        };
        let want = probed(true).solvable_meet(&opts).unwrap();
        assert!(want.wins > 0, "{spec}");
        let want_table = probed(false).table(&opts, false).unwrap();
        assert_eq!(want_table[0][0].1, want.wins);
        // On english (a second a run, the test's long pole) the default link cache, whose
        // results the published figures check, and the exchange in one group are left to
        // the small boards.
        let english = spec == "english";
        let caches: &[usize] = if english {
            &[all, mixed]
        } else {
            &[all, mixed, LINK_CACHE]
        };
        let groups: &[usize] = if english { &[1] } else { &[EXCHANGE_BYTES, 1] };
        for &cache in caches {
            let got = solver(true, cache).solvable_meet(&opts).unwrap();
            assert_eq!(got, want, "{spec} {cache}");
            let got = solver(false, cache).table(&opts, false).unwrap();
            assert_eq!(got, want_table, "{spec} {cache}");
        }
        for &bytes in groups {
            let got = exchanged(true, bytes).solvable_meet(&opts).unwrap();
            assert_eq!(got, want, "{spec} exchange {bytes}");
            let got = exchanged(false, bytes).table(&opts, false).unwrap();
            assert_eq!(got, want_table, "{spec} exchange {bytes}");
        }
    }
}

/// `meetings` against the plain definition: the positions of a layer whose canonical
/// complements are among the layer's canonical children (tri:5 from a1 back to a1,
/// layer 6 of 13 jumps).
#[test]
fn meetings_are_the_positions_whose_complements_are_children() {
    let b = Board::from_spec("tri:5").unwrap();
    let finish = Finish::parse(&b, Some("a1")).unwrap();
    let s: Solver<u64> = Solver::new(&b, b.default_start(), finish, true);
    let mut layer: Shards<u64> = vec![Vec::new(); SHARDS];
    let start = s.transforms_canon_h(s.start);
    layer[s.keys.shard(start)].push(start);
    for _ in 0..6 {
        layer = s.expand(&layer, false, None).unwrap().0;
    }
    let children = s.expand(&layer, false, None).unwrap().0;
    let want = intersect(layer.clone(), &s.complements(&children).unwrap());
    let got = s.meetings(&layer, None).unwrap();
    assert!(size(&want) > 0);
    assert_eq!(got, want);
}

/// Without cuts, skipping the jumps that [`JumpOrder`] shows to repeat a position
/// leaves every layer as the plain sweep builds it, from fewer jumps; and the meetings
/// from tagged layers are the plain ones. Boards with 8, 2 and 1 symmetries fixing the
/// start, and one whose start has a frame of its own (tri:6 from b3).
#[test]
fn ordered_layers_are_the_plain_layers() {
    for (spec, start, depth) in [
        ("english", None, 9),
        ("tri:6", None, 9),
        ("tri:6", Some("b3"), 8),
        ("tri:5", None, 8),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let start = start.map_or(b.default_start(), |h| {
            b.start_with_empty(&[b.hole(h).unwrap()])
        });
        let s: Solver<u64> = Solver::new(&b, start, Finish::Any, false);
        let order = s.order.as_ref().expect("an order");
        let mut layer: Shards<u64> = vec![Vec::new(); SHARDS];
        let first = s.transforms_canon_h(s.start);
        layer[s.keys.shard(first)].push(first);
        let mut tags = vec![order.start(0)];
        let (mut plain_jumps, mut ordered_jumps) = (0, 0);
        for k in 0..depth {
            let (next, _) = s.expand(&layer, false, None).unwrap();
            let (ordered, next_tags, _) =
                s.expand_ordered(&layer, &tags, false, None, true).unwrap();
            assert_eq!(ordered, next, "{spec} layer {}", k + 1);
            let count = |t: Option<&[u32]>| {
                let mut n = 0;
                for (i, &pos) in layer.iter().flatten().enumerate() {
                    match t {
                        Some(t) => s
                            .moves
                            .each_jump_within(pos, order.within(t[i]), |_| n += 1),
                        None => s.moves.each_jump(pos, |_| n += 1),
                    };
                }
                n
            };
            plain_jumps += count(None);
            ordered_jumps += count(Some(&tags));
            if size(&next) > 0 {
                let plain = s.meetings(&next, None).unwrap();
                let tagged = next_tags.as_deref();
                assert_eq!(s.meetings(&next, tagged).unwrap(), plain, "{spec} meetings");
                // Tags without ranks choose the same jumps.
                let (again, unranked, _) =
                    s.expand_ordered(&layer, &tags, false, None, false).unwrap();
                assert_eq!(again, next);
                let unranked = unranked.expect("tags without ranks always fit");
                let low = (1u32 << (32 - order.rank_bits())) - 1;
                let ranked = next_tags.as_deref().expect("ranks fit");
                assert!(unranked.iter().zip(ranked).all(|(&u, &r)| u == r & low));
                assert_eq!(s.meetings(&next, Some(&unranked)).unwrap(), plain, "{spec}");
            }
            tags = next_tags.expect("ranks fit");
            layer = next;
        }
        assert!(size(&layer) > 0, "{spec}");
        assert!(
            ordered_jumps < plain_jumps,
            "{spec}: {ordered_jumps} of {plain_jumps}"
        );
        // Backwards (un-jumps) from the goals, several starts of the order at once.
        let mut layer = s.goals();
        let mut tags = s.first_tags(&layer).expect("an order");
        assert!(tags.len() > 1, "{spec}");
        for k in 0..depth {
            let (next, _) = s.expand(&layer, true, None).unwrap();
            let (ordered, next_tags, _) =
                s.expand_ordered(&layer, &tags, true, None, true).unwrap();
            assert_eq!(ordered, next, "{spec} backward layer {}", k + 1);
            tags = next_tags.expect("ranks fit");
            layer = next;
        }
        assert!(size(&layer) > 0, "{spec} backward");
    }
}

/// Through a symmetry `t` (the goal's complement is `t` of the start) the meetings take
/// the children of `t(pos)`; with tags they make the `t`-images of the allowed jumps
/// ([`JumpOrder::through`]) and find what the plain meetings find, up to the middle
/// layer, where they find the solvable positions (tri:5 layer 6, tri:6 layer 9); with the
/// symmetries fixing start and goal, and with a hint's (the goal's only).
#[test]
fn ordered_meetings_through_a_symmetry_are_the_plain_ones() {
    for (spec, hole, finish, fix_start, depth) in [
        ("tri:5", "a2", "d5", true, 7),
        ("tri:6", "a3", "d6", true, 10),
        ("tri:6", "a3", "d6", false, 10),
        ("tri:6", "a2", "a5", true, 10),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let start = b.start_with_empty(&[b.hole(hole).unwrap()]);
        let finish = Finish::parse(&b, Some(finish)).unwrap();
        let s: Solver<u64> = Solver::new(&b, start, finish, fix_start);
        assert!(matches!(s.mirror, Mirror::Through(..)), "{spec} {hole}");
        let mut layer: Shards<u64> = vec![Vec::new(); SHARDS];
        let first = s.transforms_canon_h(s.start);
        layer[s.keys.shard(first)].push(first);
        let mut tags = s.first_tags(&layer).expect("an order");
        let mut found = 0;
        for k in 0..depth {
            let plain = s.meetings(&layer, None).unwrap();
            assert_eq!(
                s.meetings(&layer, Some(&tags)).unwrap(),
                plain,
                "{spec} {hole} layer {k}"
            );
            found += size(&plain);
            let (next, next_tags, _) = s.expand_ordered(&layer, &tags, false, None, true).unwrap();
            layer = next;
            tags = next_tags.expect("ranks fit");
        }
        assert!(
            found > 0,
            "{spec} {hole}: the meetings found nothing to compare"
        );
    }
}

/// The number of layers when nothing is solvable: the quick searches for a game leaving
/// one, two or three pegs ([`Solver::depth`]) against the forward sweep, on starts with a
/// one-peg finish somewhere and on starts without one (tri:7 a1: two pegs; tri:4 a1:
/// three, after an exhaustive search for two). The expected figures are those the sweep
/// gave before the searches.
#[test]
fn depth_by_search_is_depth_by_sweep() {
    let opts = SolveOptions::default();
    for (spec, hole, finish, want) in [
        ("tri:5", "a1", "b2", 14),
        ("tri:6", "a1", "b2", 20),
        ("tri:6", "c3", "b3", 20),
        ("tri:4", "a1", "a1", 7),
        ("tri:7", "a1", "a1", 26),
        ("english", "d4", "d3", 32),
    ] {
        let b = Board::from_spec(spec).unwrap();
        let start = b.start_with_empty(&[b.hole(hole).unwrap()]);
        let finish = Finish::parse(&b, Some(finish)).unwrap();
        let s: Solver<u64> = Solver::new(&b, start, finish, true);
        let quick = s.depth(&opts).unwrap();
        assert_eq!(quick, want, "{spec} {hole}");
        if spec != "english" {
            assert_eq!(s.depth_by_sweep(&opts).unwrap(), quick, "{spec} {hole}");
        }
    }
}

/// A set cancel flag stops `solvable` and a hint cache's build with
/// [`Error::Interrupted`] (Ctrl-C in `table` while its quickest loss builds one); the same
/// runs with the flag down give their figures (tri:6 from a1: results/summary.csv's
/// 43,419,942,138 wins).
#[test]
fn a_set_cancel_flag_interrupts_solvable_and_the_hint_cache() {
    use std::sync::{Arc, atomic::AtomicBool};
    let b = Board::from_spec("tri:6").unwrap();
    let start = b.default_start();
    for set in [true, false] {
        let opts = SolveOptions {
            cancel: Some(Arc::new(AtomicBool::new(set))),
            ..Default::default()
        };
        let cache = HintCache::build(&b, start, Finish::Any, &opts);
        let count = solvable(&b, start, Finish::Any, &opts);
        if set {
            assert!(matches!(cache, Err(Error::Interrupted)), "{cache:?}");
            assert!(matches!(count, Err(Error::Interrupted)), "{count:?}");
        } else {
            let wins = cache.unwrap().hint(&b, start).map(|h| h.wins);
            assert_eq!(wins, Some(43_419_942_138));
            assert_eq!(count.unwrap().wins, 43_419_942_138);
        }
    }
}
