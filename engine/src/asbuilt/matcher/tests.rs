use super::*;
use crate::handoff::{ibnet, planned};

/// Ends whose hashes collide are found by name: with every hash the same, the check is
/// the same, swaps, extras and doubled ports included.
#[test]
fn ends_whose_hashes_collide_are_found_by_name() {
    let spec = crate::DesignSpec::from_json(crate::examples::SUPERPOD_4SU).unwrap();
    let report = crate::evaluate(&spec).unwrap();
    let (fabrics, _) = planned(&report);
    let both: Vec<&PlannedFabric> = fabrics.iter().collect();
    let mut links = ibnet::planned_links(&fabrics[0]);
    links.extend(ibnet::planned_links(&fabrics[1]));
    let z = links[0].peer_port.clone();
    links[0].peer_port = links[8].peer_port.clone();
    links[8].peer_port = z;
    links.remove(3);
    let mut doubled = links[20].clone();
    doubled.peer_device = "intruder".into();
    links.push(doubled);
    let mut stranger = links[21].clone();
    stranger.device = "stranger".into();
    stranger.peer_device = "other".into();
    links.push(stranger);
    let sheets = sheets(&both);
    let expected = matched(&sheets, &links, hash);
    assert_eq!(expected.findings.len(), 3, "{:?}", expected.findings);
    assert_eq!(expected.extra.len(), 2);
    assert_eq!(matched(&sheets, &links, |_| 7), expected);
}
