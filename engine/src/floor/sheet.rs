//! The cabling sheet on the floor: the fabric's sheet with each end's rack and rack unit, each
//! cable's routed and orderable length, and its medium with the transceivers at each end.

use super::lengths::MediumTable;
use super::media::cages_of;
use super::routing::ORDERABLE_M;
use super::Site;
use crate::cabling::{links, Cable, DoesNotFit, End, Link, Names};
use crate::catalog::ReachClass;
use crate::report::{FabricReport, Report};
use crate::spec::DesignSpec;
use crate::units::Metres;
use std::borrow::Cow;
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

/// Where one cable of the sheet lies on the floor, without its names: what a row of
/// [`cabling`] adds to the fabric's own sheet, in a few dozen bytes rather than the row's
/// strings, for whatever reads a large sheet's placement beside the names it has already (the
/// hand-off files).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placing {
    /// Each end's rack, as an index into [`Placements::racks`]: none for an end the floor
    /// does not place.
    pub a_rack: Option<u32>,
    /// Each end's lowest rack unit, likewise.
    pub a_u: Option<u32>,
    pub z_rack: Option<u32>,
    pub z_u: Option<u32>,
    /// The orderable length; none when no orderable length reaches.
    pub length_m: Option<Metres>,
    pub reach: Option<ReachClass>,
    /// Links one transceiver carries at each end: 2 for a twin-port plug.
    pub plugs: [u8; 2],
}

impl Placing {
    /// The cable or optic to order with the transceivers at each end, as the sheet writes it:
    /// `a_device` and `z_device` are the ends' names, `speed_gbps` the fabric's port speed.
    pub fn medium(&self, speed_gbps: f64, a_device: &str, z_device: &str) -> String {
        let plug = |links: u8| -> Cow<'static, str> {
            match links {
                1 => "single-port".into(),
                2 => "2-port".into(),
                4 => "4-port".into(),
                n => format!("{n}-port").into(),
            }
        };
        match self.reach {
            Some(c) if c.is_optical() => format!(
                "{}G {}: {} transceiver at {}, {} at {}",
                speed_gbps.round(),
                c.label(),
                plug(self.plugs[0]),
                a_device,
                plug(self.plugs[1]),
                z_device
            ),
            Some(c) => format!("{}G {}", speed_gbps.round(), c.label()),
            None => "no medium reaches this route".into(),
        }
    }
}

/// Where every cable of [`cabling`] lies ([`Placing`]), in its order, with the racks' names.
pub struct Placements {
    pub racks: Vec<String>,
    pub cables: Vec<Placing>,
}

impl Placements {
    /// The name of rack `index`.
    pub fn rack(&self, index: Option<u32>) -> Option<&str> {
        self.racks.get(index? as usize).map(String::as_str)
    }
}

/// Where every cable of [`cabling`] lies, without naming any; `Err` as [`cabling`].
pub fn placements(spec: &DesignSpec, report: &Report) -> Result<Placements, DoesNotFit> {
    cabling_fits(report)?;
    let site = Site::new(spec, report);
    let mut cables = Vec::with_capacity(report.cable_count().min(1 << 22) as usize);
    for (fi, fabric) in report.fabrics.iter().enumerate() {
        let placer = Placer::new(spec, fabric, fi, &site);
        links(fabric, &mut |link: Link| cables.push(placer.place(link).0))?;
    }
    Ok(Placements {
        racks: site.rack_names(),
        cables,
    })
}

/// Places the cables of one fabric: the one rule for where a row of the sheet lies.
struct Placer<'s> {
    site: &'s Site,
    fabric: usize,
    table: MediumTable,
    /// Links per plug at a switch and at a node.
    per_cage: u8,
    host_per_cage: u8,
}

impl<'s> Placer<'s> {
    fn new(spec: &DesignSpec, fabric: &FabricReport, fi: usize, site: &'s Site) -> Self {
        let cages = cages_of(spec, fabric);
        let plug = |links: u32| links.min(u32::from(u8::MAX)) as u8;
        Placer {
            site,
            fabric: fi,
            table: MediumTable::new(fabric.port_rate.bits_per_second() / 1e9),
            per_cage: plug(cages.per_switch),
            host_per_cage: plug(cages.per_node),
        }
    }

    /// Where `link` lies, and its routed length, m.
    fn place(&self, link: Link) -> (Placing, f64) {
        let site = self.site;
        let z = site.spot(self.fabric, link.z, None);
        let a = site.spot(self.fabric, link.a, Some(z));
        let route_m = site.route_m(a, z);
        let to_node = !matches!(link.a, End::Switch { .. });
        let (bin, reach) = self.table.link(route_m, to_node);
        let plug = |end: End| match end {
            End::Switch { .. } => self.per_cage,
            End::Node { .. } => self.host_per_cage,
            End::Endpoint(_) => 1,
        };
        let placing = Placing {
            a_rack: site.rack_index(a),
            a_u: site.rack_unit(self.fabric, link.a),
            z_rack: site.rack_index(z),
            z_u: site.rack_unit(self.fabric, link.z),
            length_m: bin.map(|b| Metres::new(ORDERABLE_M[b])),
            reach,
            plugs: [plug(link.a), plug(link.z)],
        };
        (placing, route_m)
    }
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
    let racks = site.rack_names();
    let rack = |index: Option<u32>| racks.get(index? as usize).cloned();
    let mut stopped = false;
    for (fi, fabric) in report.fabrics.iter().enumerate() {
        let names = Names::of(fabric);
        let speed = fabric.port_rate.bits_per_second() / 1e9;
        let placer = Placer::new(spec, fabric, fi, &site);
        links(fabric, &mut |link: Link| {
            if stopped {
                return;
            }
            let (placing, route_m) = placer.place(link);
            let (a_device, a_port) = names.end(link.a);
            let (z_device, z_port) = names.end(link.z);
            let medium = placing.medium(speed, &a_device, &z_device);
            stopped = each(Cable {
                fabric: fabric.name.clone(),
                tier: link.tier,
                a_device,
                a_port,
                z_device,
                z_port,
                reach: placing.reach,
                length_m: placing.length_m,
                a_rack: rack(placing.a_rack),
                a_u: placing.a_u,
                z_rack: rack(placing.z_rack),
                z_u: placing.z_u,
                route_m: Some(Metres::new((route_m * 100.0).round() / 100.0)),
                medium: Some(medium),
            })
            .is_break();
        })?;
    }
    Ok(())
}
