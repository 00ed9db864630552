//! The cabling sheet on the floor: the fabric's sheet with each end's rack and rack unit, each
//! cable's routed and orderable length, and its medium with the transceivers at each end.

use super::lengths::MediumTable;
use super::media::links_per_plug;
use super::routing::ORDERABLE_M;
use super::Site;
use crate::cabling::{links, Cable, DoesNotFit, End, Link, Names};
use crate::catalog::{chassis, switch};
use crate::report::Report;
use crate::spec::{DesignSpec, Role};
use std::ops::ControlFlow;

/// Every cable of every fabric of `spec` (evaluated as `report`), placed and routed; `Err`
/// names a fabric whose switches cannot take its cables.
pub fn cabling(spec: &DesignSpec, report: &Report) -> Result<Vec<Cable>, DoesNotFit> {
    let mut sheet = Vec::new();
    cabling_each(spec, report, |cable| {
        sheet.push(cable);
        ControlFlow::Continue(())
    })?;
    Ok(sheet)
}

/// `Err` naming the first fabric of `report` whose switches cannot take its cables: a design
/// that has no cabling sheet.
pub fn cabling_fits(report: &Report) -> Result<(), DoesNotFit> {
    report
        .fabrics
        .iter()
        .try_for_each(|fabric| links(fabric, &mut |_: Link| {}))
}

/// Calls `each` with every cable of [`cabling`], in its order, one at a time, so that a sheet
/// of any size can be written as it is made, until `each` breaks (its reader has gone: the
/// cables after are neither named nor routed); refuses before the first, as [`cabling_fits`]
/// does, a design one of whose fabrics cannot be cabled, so that such a sheet is whole or not
/// begun.
pub fn cabling_each(
    spec: &DesignSpec,
    report: &Report,
    mut each: impl FnMut(Cable) -> ControlFlow<()>,
) -> Result<(), DoesNotFit> {
    cabling_fits(report)?;
    let site = Site::new(spec, report);
    let mut stopped = false;
    let node_cages = chassis(&spec.cluster).links_per_cage;
    for (fi, fabric) in report.fabrics.iter().enumerate() {
        let names = Names::of(fabric);
        let speed = fabric.port_rate.bits_per_second() / 1e9;
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
            if stopped {
                return;
            }
            let z = site.spot(fi, link.z, None);
            let a = site.spot(fi, link.a, Some(z));
            let route_m = site.route_m(a, z);
            let to_node = !matches!(link.a, End::Switch { .. });
            let (bin, class) = table.link(route_m, to_node);
            let (a_device, a_port) = names.end(link.a);
            let (z_device, z_port) = names.end(link.z);
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
            stopped = each(Cable {
                fabric: fabric.name.clone(),
                tier: link.tier,
                a_device,
                a_port,
                z_device,
                z_port,
                reach: class,
                length_m: bin.map(|b| crate::units::Metres::new(ORDERABLE_M[b])),
                a_rack: site.rack(a),
                a_u: site.rack_unit(fi, link.a),
                z_rack: site.rack(z),
                z_u: site.rack_unit(fi, link.z),
                route_m: Some(crate::units::Metres::new((route_m * 100.0).round() / 100.0)),
                medium: Some(medium),
            })
            .is_break();
        })?;
    }
    Ok(())
}
