//! The bill of materials of a sized fabric: switches, cables and transceivers, with cost and
//! power [Al-Fares, Loukissas & Vahdat, SIGCOMM 2008; RA-11333-001; NVIDIA switch datasheets; NVIDIA LinkX].

use crate::catalog::{media_for, Media, Switch, SWITCH_END_W};
use crate::report::{BomLine, CableCount};
use crate::spec::{CableRuns, CatalogOverride};
use crate::topology::Plan;
use crate::units::{Usd, Watts};
use std::borrow::Cow;

pub struct Materials {
    pub lines: Vec<BomLine>,
    pub cables: Vec<CableCount>,
    pub transceivers: u32,
}

/// A catalog item as it enters the bill of materials.
pub(crate) struct Item {
    pub key: String,
    pub description: String,
    pub price: Usd,
    pub power: Watts,
    pub estimate: bool,
    pub source: Cow<'static, str>,
}

impl Item {
    /// The catalog item of `line`, to add it to another bill.
    pub(crate) fn of(line: &BomLine) -> Item {
        Item {
            key: line.item.clone(),
            description: line.description.clone(),
            price: line.catalog_unit_price_usd,
            power: line.catalog_unit_power_w,
            estimate: line.estimate,
            source: line.source.clone(),
        }
    }
}

/// Lines of a bill of materials, one per item, with the design's overrides applied.
pub(crate) struct Builder<'a> {
    pub lines: Vec<BomLine>,
    pub overrides: &'a [CatalogOverride],
}

impl Builder<'_> {
    pub(crate) fn add(
        &mut self,
        quantity: u32,
        Item {
            key: item,
            description,
            price,
            power,
            estimate,
            source,
        }: Item,
    ) {
        if quantity == 0 {
            return;
        }
        if let Some(line) = self.lines.iter_mut().find(|l| l.item == item) {
            line.quantity += quantity;
            line.total_usd = line.unit_price_usd * f64::from(line.quantity);
            line.total_power_w = line.unit_power_w * f64::from(line.quantity);
            return;
        }
        let overridden = self.overrides.iter().find(|o| o.item == item);
        let unit_price = overridden.and_then(|o| o.unit_price_usd).unwrap_or(price);
        let unit_power = overridden.and_then(|o| o.power_w).unwrap_or(power);
        self.lines.push(BomLine {
            item,
            description,
            quantity,
            unit_price_usd: unit_price,
            total_usd: unit_price * f64::from(quantity),
            unit_power_w: unit_power,
            total_power_w: unit_power * f64::from(quantity),
            estimate,
            source,
            quoted: overridden.is_some(),
            catalog_unit_price_usd: price,
            catalog_unit_power_w: power,
        });
    }

    /// The links of one tier: a cable each, and for optics a transceiver at each end; a switch
    /// cage serves `links_per_cage` links (twin-port OSFP).
    fn tier(
        &mut self,
        tier: &'static str,
        links: u32,
        media: &Media,
        speed: f64,
        links_per_cage: u32,
        host_end: bool,
    ) -> u32 {
        let class = media.class;
        // Names are joined rather than formatted: this runs for every tier of every fabric on
        // every evaluation, and the formatting machinery cost more than the sizing.
        let speed = speed.round() as u32;
        let gigabits = speed.to_string();
        let (key, label) = (class.key(), class.label());
        if class.is_optical() {
            self.add(
                links,
                Item {
                    key: ["fibre:", key].concat(),
                    description: [label, " fibre patch cord"].concat(),
                    price: media.cable_price_usd,
                    power: Watts::new(0.0),
                    estimate: true,
                    source: media.cost.source.into(),
                },
            );
        } else {
            self.add(
                links,
                Item {
                    key: ["cable:", key, ":", &gigabits].concat(),
                    description: [&gigabits, "G ", label].concat(),
                    price: media.cable_price_usd,
                    // An active cable draws at each end; a switch's end is in its rating.
                    power: if host_end {
                        media.host_transceiver_w + SWITCH_END_W
                    } else {
                        SWITCH_END_W + SWITCH_END_W
                    },
                    estimate: true,
                    source: media.cost.source.into(),
                },
            );
            return 0;
        }
        let switch_ends = if host_end { 1 } else { 2 };
        let cages = links.div_ceil(links_per_cage.max(1)) * switch_ends;
        let cage_label = if links_per_cage > 1 {
            format!("{links_per_cage}-port {}G", speed * links_per_cage)
        } else {
            [&gigabits, "G"].concat()
        };
        self.add(
            cages,
            Item {
                key: format!("optic:{key}:{speed}:switch{links_per_cage}x"),
                description: [
                    &cage_label,
                    " ",
                    label,
                    " transceiver, switch end (",
                    tier,
                    "; its power is in the switch's maximum)",
                ]
                .concat(),
                price: media.switch_transceiver_price_usd,
                power: SWITCH_END_W,
                estimate: true,
                source: media.power.source.into(),
            },
        );
        let hosts = if host_end { links } else { 0 };
        if hosts > 0 {
            self.add(
                hosts,
                Item {
                    key: ["optic:", key, ":", &gigabits, ":host"].concat(),
                    description: [&gigabits, "G ", label, " transceiver, NIC end"].concat(),
                    price: media.host_transceiver_price_usd,
                    power: media.host_transceiver_w,
                    estimate: true,
                    source: media.power.source.into(),
                },
            );
        }
        cages + hosts
    }
}

pub fn materials(
    plan: &Plan,
    switch: &Switch,
    speed_gbps: f64,
    runs: &CableRuns,
    overrides: &[CatalogOverride],
) -> Materials {
    let mut b = Builder {
        lines: Vec::new(),
        overrides,
    };
    b.add(
        plan.switches(),
        Item {
            key: format!("switch:{}", switch.key),
            description: switch.name.to_string(),
            price: switch.price_usd,
            power: switch.power_w,
            estimate: switch.cost.estimate,
            source: switch.cost.source.into(),
        },
    );
    let links_per_cage = switch.links_per_cage(speed_gbps);
    let mut cables = Vec::new();
    let mut transceivers = 0;
    for (tier, links, length, host_end) in [
        ("node-leaf", plan.node_leaf_links, runs.node_leaf_m, true),
        (
            "leaf-spine",
            plan.leaf_spine_links,
            runs.leaf_spine_m,
            false,
        ),
        (
            "spine-core",
            plan.spine_core_links,
            runs.spine_core_m,
            false,
        ),
    ] {
        if links == 0 {
            continue;
        }
        // Validation caps cable runs at what the catalog reaches, so media always exists.
        if let Some(media) = media_for(speed_gbps, length.metres(), links_per_cage, host_end) {
            transceivers += b.tier(tier, links, &media, speed_gbps, links_per_cage, host_end);
            cables.push(CableCount {
                tier: tier.to_string(),
                reach: media.class,
                length_m: length,
                count: links,
            });
        }
    }
    Materials {
        lines: b.lines,
        cables,
        transceivers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::switch;
    use crate::spec::Topology;
    use crate::topology::{size, Demand};
    use crate::units::Metres;

    #[test]
    fn one_superpod_su_with_optics_counts_a_transceiver_per_link_end_with_twin_port_cages() {
        let plan = size(&Demand {
            endpoints: 252,
            growth_endpoints: 252,
            ports_per_node: 8,
            radix: 64,
            leaf_oversubscription: 1.0,
            spine_oversubscription: 1.0,
            topology: Topology::RailOptimized,
        });
        let runs = CableRuns {
            node_leaf_m: Metres::new(20.0),
            leaf_spine_m: Metres::new(30.0),
            spine_core_m: Metres::new(100.0),
        };
        let m = materials(&plan, switch("qm9700").unwrap(), 400.0, &runs, &[]);
        let qty = |item: &str| {
            m.lines
                .iter()
                .find(|l| l.item == item)
                .map(|l| l.quantity)
                .unwrap_or(0)
        };
        assert_eq!(qty("switch:qm9700"), 12);
        // Node-leaf: 252 NIC-end transceivers, 126 twin-port cages at the leaves.
        assert_eq!(qty("optic:multimode:400:host"), 252);
        // Leaf-spine: 256 links, twin-port cages at both ends: 2 × 128, plus the 126 above.
        assert_eq!(qty("optic:multimode:400:switch2x"), 126 + 256);
        assert_eq!(qty("fibre:multimode"), 252 + 256);
        assert_eq!(m.transceivers, 252 + 126 + 256);
    }

    #[test]
    fn an_override_replaces_the_estimate() {
        let plan = size(&Demand {
            endpoints: 16,
            growth_endpoints: 16,
            ports_per_node: 1,
            radix: 64,
            leaf_oversubscription: 1.0,
            spine_oversubscription: 1.0,
            topology: Topology::Auto,
        });
        let overrides = [CatalogOverride {
            item: "switch:qm9700".into(),
            unit_price_usd: Some(Usd::new(25_000.0)),
            power_w: Some(Watts::new(900.0)),
        }];
        let m = materials(
            &plan,
            switch("qm9700").unwrap(),
            400.0,
            &CableRuns::default(),
            &overrides,
        );
        let line = &m.lines[0];
        assert_eq!(
            (line.unit_price_usd, line.unit_power_w, line.basis().label()),
            (Usd::new(25_000.0), Watts::new(900.0), "quoted")
        );
    }
}
