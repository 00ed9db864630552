//! The candidate space: every combination of the freedoms, numbered so that a candidate is an
//! id (a mixed-radix number) and the search can stop and resume anywhere.

use super::arrange::arrange;
use super::request::{Arrangement, Freedoms, SearchRequest};
use super::sample::Sequence;
use crate::catalog::{switch, Switch, SwitchFamily, SWITCHES};
use crate::spec::{DesignSpec, Fabric, Isolation, Role, Topology};
use crate::switch_choice::{candidates, choose_among};
use crate::technology::Technology;
use crate::units::GigabitsPerSecond;
use serde::{Deserialize, Serialize};

/// One fabric's choices in a candidate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FabricChoice {
    pub fabric: String,
    pub technology: Technology,
    pub port_gbps: GigabitsPerSecond,
    pub switch: String,
    pub topology: Topology,
    pub leaf_oversubscription: f64,
    pub spine_oversubscription: f64,
}

/// Everything a candidate chose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "CandidateChoice"))]
pub struct Choice {
    pub arrangement: Arrangement,
    pub nics_per_node: u32,
    pub fabrics: Vec<FabricChoice>,
    /// The isolation every tenant takes, where the search varies it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tenant_isolation: Option<Isolation>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FabricOption {
    pub technology: Technology,
    pub port_gbps: GigabitsPerSecond,
    /// The switch model; `None` for the planner's least-cost choice among the allowed ones.
    pub switch: Option<&'static str>,
    pub topology: Topology,
    pub leaf: f64,
    pub spine: f64,
    pub bound: Bound,
}

/// What the fewest switches a fabric can have cost and draw, for bounds before evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Bound {
    /// One model: one leaf per radix of endpoints.
    Switch { price: f64, power: f64, radix: u32 },
    /// Any of several models: the least price and power per port of any of them.
    PerPort { price: f64, power: f64 },
}

impl Bound {
    /// The price and power floor of a fabric of `endpoints`.
    fn floor(self, endpoints: u64) -> (f64, f64) {
        match self {
            Bound::Switch {
                price,
                power,
                radix,
            } => {
                let leaves = endpoints.div_ceil(u64::from(radix.max(1))) as f64;
                (leaves * price, leaves * power)
            }
            Bound::PerPort { price, power } => (endpoints as f64 * price, endpoints as f64 * power),
        }
    }
}

/// The candidates of one arrangement of fabrics.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    pub arrangement: Arrangement,
    /// The isolation every tenant of `template` takes, where the search varies it.
    pub isolation: Option<Isolation>,
    pub template: DesignSpec,
    pub nics: Vec<u32>,
    pub options: Vec<Vec<FabricOption>>,
    pub offset: u64,
    pub size: u64,
}

#[derive(Debug, Clone)]
pub(crate) struct Space {
    pub blocks: Vec<Block>,
    /// Candidates in the space, counted saturating: `u64::MAX` when `counted` is false.
    pub size: u64,
    /// Whether `size` is the exact count (false: more candidates than a 64-bit count holds).
    pub counted: bool,
    /// Whether the search visits a quasi-random sample ([`Sequence`]) instead of every
    /// candidate in order: a candidate's id is then its draw number.
    pub sampled: bool,
    sequence: Sequence,
    /// The switch models the constraints allow: the planner chooses among them.
    allowed: Vec<&'static str>,
}

impl Space {
    /// The space `request` spans (the request is valid). Choices no constraint allows are
    /// left out here, before anything is evaluated.
    pub fn new(request: &SearchRequest) -> Space {
        let f = &request.freedoms;
        // Every list in one order, whatever the request's: the same request lists in another
        // order span the same space with the same ids.
        let mut arrangements = f.arrangements.clone();
        if arrangements.is_empty() {
            arrangements.push(Arrangement::AsDesigned);
        }
        arrangements.sort_unstable();
        arrangements.dedup();
        let mut nics = f.nics_per_node.clone();
        if nics.is_empty() {
            nics.push(request.base.cluster.nics_per_node);
        }
        nics.sort_unstable();
        nics.dedup();
        let mut levels: Vec<Option<Isolation>> =
            f.tenant_isolation.iter().copied().map(Some).collect();
        levels.sort_unstable_by_key(|l| l.map(|l| l as u8));
        levels.dedup();
        if levels.is_empty() {
            levels.push(None);
        }
        let mut blocks = Vec::new();
        let mut offset = 0u64;
        let mut counted = true;
        let mut most_fabrics = 0;
        for (arrangement, isolation) in arrangements
            .iter()
            .flat_map(|&a| levels.iter().map(move |&l| (a, l)))
        {
            let mut template = arrange(&request.base, arrangement);
            if let Some(level) = isolation {
                for t in &mut template.tenants {
                    t.isolation = level;
                }
            }
            if let Some(g) = request.constraints.growth_target_nodes {
                template.cluster.growth_target_nodes = Some(g);
            }
            let options: Vec<Vec<FabricOption>> = template
                .fabrics
                .iter()
                .map(|fabric| fabric_options(request, fabric))
                .collect();
            let size = options
                .iter()
                .try_fold(nics.len() as u64, |n, o| n.checked_mul(o.len() as u64));
            let size = size.unwrap_or_else(|| {
                counted = false;
                u64::MAX
            });
            if size == 0 {
                continue;
            }
            most_fabrics = most_fabrics.max(options.len());
            blocks.push(Block {
                arrangement,
                isolation,
                template,
                nics: nics.clone(),
                options,
                offset,
                size,
            });
            offset = offset.checked_add(size).unwrap_or_else(|| {
                counted = false;
                u64::MAX
            });
        }
        Space {
            blocks,
            size: offset,
            counted,
            sampled: !counted || offset > request.max_candidates,
            // The arrangement, the NIC count and each fabric's option.
            sequence: Sequence::new(2 + most_fabrics, request.seed),
            allowed: SWITCHES
                .iter()
                .filter(|s| request.constraints.allows_switch(s.key))
                .map(|s| s.key)
                .collect(),
        }
    }

    /// `spec` with the planner's choice of switch wherever the candidate leaves it open.
    fn choose_switches(&self, spec: &mut DesignSpec) {
        let chosen: Vec<Option<&'static str>> = spec
            .fabrics
            .iter()
            .map(|f| match f.switch {
                Some(_) => None,
                None => choose_among(spec, f, |s| self.allowed.contains(&s.key))
                    .ok()
                    .map(|(s, _)| s.key),
            })
            .collect();
        for (fabric, key) in spec.fabrics.iter_mut().zip(chosen) {
            if let Some(key) = key {
                fabric.switch = Some(key.to_string());
            }
        }
    }

    /// The block and the option picked for each of its fabrics by candidate `id`.
    pub fn decode(&self, id: u64) -> Option<(&Block, u32, Vec<&FabricOption>)> {
        let mut options = Vec::new();
        let (b, nics) = self.indices(id, &mut options)?;
        let block = &self.blocks[b];
        let picked = block
            .options
            .iter()
            .zip(&options)
            .map(|(list, &i)| list.get(i))
            .collect::<Option<Vec<_>>>()?;
        Some((block, *block.nics.get(nics)?, picked))
    }

    /// The design candidate `id` stands for.
    pub fn spec(&self, id: u64) -> Option<DesignSpec> {
        let (block, nics, picked) = self.decode(id)?;
        let mut spec = block.template.clone();
        spec.cluster.nics_per_node = nics;
        for (fabric, o) in spec.fabrics.iter_mut().zip(picked) {
            apply(fabric, o);
        }
        self.choose_switches(&mut spec);
        Some(spec)
    }

    /// The design of the candidate at (`block`, `nics`, `options`) with each fabric `f` on
    /// switch `switch(f)`, the one it was sized on: [`Space::spec`] without choosing again.
    pub fn spec_on<'a>(
        &self,
        block: usize,
        nics: usize,
        options: &[usize],
        switch: impl Fn(usize) -> Option<&'a str>,
    ) -> Option<DesignSpec> {
        let block = self.blocks.get(block)?;
        let mut spec = block.template.clone();
        spec.cluster.nics_per_node = *block.nics.get(nics)?;
        for (f, (fabric, (list, &option))) in spec
            .fabrics
            .iter_mut()
            .zip(block.options.iter().zip(options))
            .enumerate()
        {
            apply(fabric, list.get(option)?);
            fabric.switch = Some(switch(f)?.to_string());
        }
        Some(spec)
    }

    /// Candidate `id` as indices: its block, its NIC count's and each fabric's option
    /// (written into `options`), without allocating. In order, `id` is a mixed-radix number
    /// (the last fabric varies fastest, the NIC count slowest); sampled, it is a draw of the
    /// [`Sequence`], even over the arrangements, the NIC counts and each fabric's options.
    pub fn indices(&self, id: u64, options: &mut Vec<usize>) -> Option<(usize, usize)> {
        options.clear();
        if self.sampled {
            let b = self.sequence.value(id, 0, self.blocks.len());
            let block = self.blocks.get(b)?;
            let nics = self.sequence.value(id, 1, block.nics.len());
            for (f, list) in block.options.iter().enumerate() {
                options.push(self.sequence.value(id, 2 + f, list.len()));
            }
            return Some((b, nics));
        }
        let b = self
            .blocks
            .iter()
            .position(|b| id >= b.offset && id - b.offset < b.size)?;
        let block = &self.blocks[b];
        let mut rest = id - block.offset;
        for list in block.options.iter().rev() {
            let n = list.len() as u64;
            options.push((rest % n) as usize);
            rest /= n;
        }
        options.reverse();
        Some((b, rest as usize))
    }

    /// The number the candidate at (`block`, `nics`, `options`) has in order (not sampled),
    /// which names it alone: the inverse of [`Space::indices`] in order. `None` when the
    /// space is too large to count.
    pub fn ordinal(&self, block: usize, nics: usize, options: &[usize]) -> Option<u64> {
        if !self.counted {
            return None;
        }
        let b = self.blocks.get(block)?;
        let mut n = nics as u64;
        for (list, &o) in b.options.iter().zip(options) {
            n = n.checked_mul(list.len() as u64)?.checked_add(o as u64)?;
        }
        b.offset.checked_add(n)
    }

    /// One fabric of a block on its own, with only the workloads it carries: what that
    /// fabric contributes to a candidate does not depend on the other fabrics.
    pub fn part_spec(
        &self,
        block: usize,
        fabric: usize,
        nics: usize,
        option: usize,
    ) -> Option<DesignSpec> {
        let block = self.blocks.get(block)?;
        let o = block.options.get(fabric)?.get(option)?;
        let template = &block.template;
        let mut f = template.fabrics.get(fabric)?.clone();
        apply(&mut f, o);
        let mut cluster = template.cluster.clone();
        cluster.nics_per_node = *block.nics.get(nics)?;
        let mut part = DesignSpec {
            schema_version: template.schema_version,
            title: template.title.clone(),
            cluster,
            workloads: template
                .workloads
                .iter()
                .filter(|w| w.fabric() == f.name)
                .cloned()
                .collect(),
            fabrics: vec![f],
            calibration: template.calibration.clone(),
            overrides: template.overrides.clone(),
            floor: template.floor.clone(),
            growth: None,
            tenants: Vec::new(),
        };
        self.choose_switches(&mut part);
        Some(part)
    }

    pub fn choice(&self, id: u64) -> Option<Choice> {
        let (block, nics, picked) = self.decode(id)?;
        let spec = self.spec(id)?;
        Some(Choice {
            arrangement: block.arrangement,
            tenant_isolation: block.isolation,
            nics_per_node: nics,
            fabrics: block
                .template
                .fabrics
                .iter()
                .zip(picked)
                .zip(&spec.fabrics)
                .map(|((f, o), chosen)| FabricChoice {
                    fabric: f.name.clone(),
                    technology: o.technology,
                    port_gbps: o.port_gbps,
                    switch: chosen.switch_key().to_string(),
                    topology: o.topology,
                    leaf_oversubscription: o.leaf,
                    spine_oversubscription: o.spine,
                })
                .collect(),
        })
    }

    /// A floor under candidate `id`'s network cost and power: each fabric needs at least one
    /// leaf per radix of endpoints. `None` when the design overrides catalog prices or power,
    /// which the floor does not model.
    pub fn floor(&self, block: usize, nics: usize, options: &[usize]) -> Option<(f64, f64)> {
        let block = self.blocks.get(block)?;
        if !block.template.overrides.is_empty() {
            return None;
        }
        let nics = *block.nics.get(nics)?;
        let (mut cost, mut power) = (0.0, 0.0);
        let cluster = &block.template.cluster;
        for ((f, list), &i) in block
            .template
            .fabrics
            .iter()
            .zip(&block.options)
            .zip(options)
        {
            let o = list.get(i)?;
            let nodes = f.attached_nodes.unwrap_or(cluster.nodes);
            let ppn = f.ports_per_node.unwrap_or(match f.role {
                Role::Compute => nics,
                _ => 1,
            });
            // One node alone on a compute fabric needs no switch (the scale-up domain).
            if f.role == Role::Compute && nodes <= 1 {
                continue;
            }
            let endpoints = u64::from(nodes) * u64::from(ppn) + u64::from(f.extra_endpoints);
            let (c, p) = o.bound.floor(endpoints);
            cost += c;
            power += p;
        }
        Some((cost, power))
    }
}

fn apply(fabric: &mut Fabric, o: &FabricOption) {
    fabric.technology = o.technology;
    fabric.port_gbps = (o.port_gbps.gbps() != o.technology.port_gbps()).then_some(o.port_gbps);
    fabric.switch = o.switch.map(str::to_string);
    fabric.topology = o.topology;
    fabric.oversubscription.leaf = o.leaf;
    fabric.oversubscription.spine = o.spine;
}

fn family_fits(family: SwitchFamily, t: Technology) -> bool {
    match family {
        SwitchFamily::InfiniBand => !t.is_ethernet(),
        SwitchFamily::Ethernet => t.is_ethernet(),
    }
}

/// Every allowed combination of technology, port speed, switch, topology and oversubscription
/// for one fabric of the template.
fn fabric_options(request: &SearchRequest, fabric: &Fabric) -> Vec<FabricOption> {
    let varied = &request.freedoms.fabrics;
    let fixed = Freedoms::default();
    let f = if varied.is_empty() || varied.contains(&fabric.name) {
        &request.freedoms
    } else {
        &fixed
    };
    let c = &request.constraints;
    let mut technologies = if f.technologies.is_empty() {
        vec![fabric.technology]
    } else {
        f.technologies.clone()
    };
    technologies.sort_unstable();
    technologies.dedup();
    let topologies = listed(&f.topologies, fabric.topology);
    let leaves = listed(&f.leaf_oversubscription, fabric.oversubscription.leaf);
    let spines = listed(&f.spine_oversubscription, fabric.oversubscription.spine);
    let mut out = Vec::new();
    for t in technologies.into_iter().filter(|&t| c.allows_technology(t)) {
        let speeds: Vec<f64> = if f.port_speeds_gbps.is_empty() {
            vec![if t == fabric.technology {
                fabric.port_gbps()
            } else {
                t.port_gbps()
            }]
        } else {
            let mut s: Vec<f64> = f
                .port_speeds_gbps
                .iter()
                .copied()
                .filter(|&s| s <= t.port_gbps() + 1e-9)
                .collect();
            s.sort_by(f64::total_cmp);
            s.dedup();
            s
        };
        for &speed in &speeds {
            // Every model that can carry it, the design's own, or the planner's choice.
            let switches: Vec<(Option<&'static str>, Bound)> = if f.switch_models {
                SWITCHES
                    .iter()
                    .filter(|s| family_fits(s.family, t) && c.allows_switch(s.key))
                    .filter_map(|s| Some((Some(s.key), one_model(s, speed)?)))
                    .collect()
            } else if let (true, Some(named)) = (t == fabric.technology, &fabric.switch) {
                switch(named)
                    .filter(|s| family_fits(s.family, t) && c.allows_switch(s.key))
                    .and_then(|s| Some((Some(s.key), one_model(s, speed)?)))
                    .into_iter()
                    .collect()
            } else {
                any_candidate(t, speed, |s| c.allows_switch(s.key))
                    .map(|bound| (None, bound))
                    .into_iter()
                    .collect()
            };
            for (switch, bound) in switches {
                for &topology in &topologies {
                    for &leaf in &leaves {
                        for &spine in &spines {
                            out.push(FabricOption {
                                technology: t,
                                port_gbps: GigabitsPerSecond::new(speed),
                                switch,
                                topology,
                                leaf,
                                spine,
                                bound,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The bound of a fabric on `switch` at `speed`; `None` when it has no port that fast.
fn one_model(switch: &Switch, speed: f64) -> Option<Bound> {
    let (_, radix) = switch.port_mode_for(speed)?;
    Some(Bound::Switch {
        price: switch.price_usd.dollars(),
        power: switch.power_w.watts(),
        radix,
    })
}

/// The bound of a fabric on whichever allowed candidate the planner chooses; `None` when no
/// allowed switch carries the technology at that speed.
fn any_candidate(
    technology: Technology,
    speed: f64,
    allowed: impl Fn(&Switch) -> bool,
) -> Option<Bound> {
    let per_port: Vec<(f64, f64)> = candidates(technology, speed)
        .filter(|s| allowed(s))
        .filter_map(|s| {
            let (_, radix) = s.port_mode_for(speed)?;
            let radix = f64::from(radix.max(1));
            Some((s.price_usd.dollars() / radix, s.power_w.watts() / radix))
        })
        .collect();
    let least =
        |pick: fn(&(f64, f64)) -> f64| per_port.iter().map(pick).fold(f64::INFINITY, f64::min);
    (!per_port.is_empty()).then(|| Bound::PerPort {
        price: least(|p| p.0),
        power: least(|p| p.1),
    })
}

/// `values` in ascending order without repeats, or the base's value alone.
fn listed<T: PartialOrd + Copy>(values: &[T], base: T) -> Vec<T> {
    let mut v = if values.is_empty() {
        vec![base]
    } else {
        values.to_vec()
    };
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v.dedup_by(|a, b| a == b);
    v
}
