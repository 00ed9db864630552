//! The cabling sheet on the floor: the fabric's sheet with each end's rack and rack unit, each
//! cable's routed and orderable length, and its medium with the transceivers at each end.

use super::lengths::MediumTable;
use super::media::{links_per_plug, spot};
use super::placement::place;
use super::rack_name;
use super::routing::{Router, ORDERABLE_M};
use crate::cabling::{digits, links, Cable, DoesNotFit, End, Link, Names};
use crate::catalog::{chassis, switch};
use crate::report::Report;
use crate::spec::{DesignSpec, Role};

/// Every cable of every fabric of `spec` (evaluated as `report`), placed and routed; `Err`
/// names a fabric whose switches cannot take its cables.
pub fn cabling(spec: &DesignSpec, report: &Report) -> Result<Vec<Cable>, DoesNotFit> {
    let placed = place(spec, &report.fabrics);
    let router = Router::new(&placed, &spec.floor);
    let racks: Vec<String> = placed
        .racks
        .iter()
        .map(|r| rack_name(r.row, r.position))
        .collect();
    let node_cages = chassis(&spec.cluster).links_per_cage;
    let mut sheet = Vec::new();
    for (fi, fabric) in report.fabrics.iter().enumerate() {
        let names = Names {
            fabric: &fabric.name,
            nodes: digits(fabric.node_span()),
            switches: digits(
                fabric
                    .plan
                    .leaves
                    .max(fabric.plan.spines)
                    .max(fabric.plan.cores),
            ),
        };
        let speed = fabric.port_rate.0 / 1e9;
        let per_cage = links_per_plug(
            switch(&fabric.switch)
                .map(|s| s.links_per_cage(speed))
                .unwrap_or(1),
        );
        let host_per_cage = if fabric.role == Role::Compute {
            links_per_plug(node_cages)
        } else {
            1
        };
        let plug = |end: End| match end {
            End::Switch { .. } if per_cage > 1 => format!("{per_cage}-port"),
            End::Node { .. } if host_per_cage > 1 => format!("{host_per_cage}-port"),
            _ => "single-port".to_string(),
        };
        let table = MediumTable::new(speed);
        links(fabric, &mut |link: Link| {
            let z = spot(&router, fi, link.z, None);
            let a = spot(&router, fi, link.a, Some(z));
            let route_m = router.route(a, z);
            let to_node = !matches!(link.a, End::Switch { .. });
            let (bin, class) = table.link(route_m, to_node);
            let (a_device, a_port) = names.end(link.a);
            let (z_device, z_port) = names.end(link.z);
            let rack = |s: super::routing::Spot| racks.get(s.rack as usize).cloned();
            let u = |end: End| match end {
                End::Node { node, .. } => Some(placed.node(node).1),
                End::Switch { role, index, .. } => placed.switch(fi, role, index).map(|s| s.1),
                End::Endpoint(_) => None,
            };
            let medium = match class {
                Some(c) if c.is_optical() => format!(
                    "{}G {}: {} transceiver at {}, {} at {}",
                    speed.round(),
                    c.label(),
                    plug(link.a),
                    a_device,
                    plug(link.z),
                    z_device
                ),
                Some(c) => format!("{}G {}", speed.round(), c.label()),
                None => "no medium reaches this route".into(),
            };
            sheet.push(Cable {
                fabric: fabric.name.clone(),
                tier: link.tier,
                a_device,
                a_port,
                z_device,
                z_port,
                reach: class,
                length_m: bin.map(|b| crate::units::Metres(ORDERABLE_M[b])),
                a_rack: rack(a),
                a_u: u(link.a),
                z_rack: rack(z),
                z_u: u(link.z),
                route_m: Some(crate::units::Metres((route_m * 100.0).round() / 100.0)),
                medium: Some(medium),
            });
        })?;
    }
    Ok(sheet)
}
