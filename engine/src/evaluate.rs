use crate::allocation::Allocation;
use crate::bom::materials;
use crate::catalog::{gpu, switch, Gpu};
use crate::error::{FieldError, SpecErrors};
use crate::floor::{Laid, LastFloor, SharedFloors};
use crate::headroom;
use crate::links::{ports_per_node, Conditions, Links};
use crate::report::{
    ClusterSummary, FabricReport, Figure, Headline, Report, Severity, TargetVerdict, Totals,
    WorkloadReport,
};
use crate::sizing::{attached_nodes, size_fabric};
use crate::spec::{DesignSpec, Fabric, Workload};
use crate::tenancy::TenantPlacement;
use crate::topology::Plan;
use crate::units::{BitRate, Ratio, Seconds, Share, Slowdown, Usd};
use crate::{ecmp, findings, inference, rag, storage, switch_choice, training};
use std::borrow::Cow;

/// The links of fabric `f` of `spec`, sized as `plan`, under `conditions`: what its workloads'
/// collectives run over, and what a baseline measured on it is predicted on.
pub(crate) fn links_on_plan(
    spec: &DesignSpec,
    gpu: &Gpu,
    f: &Fabric,
    plan: &Plan,
    conditions: Conditions,
) -> Links {
    let multipath = match conditions.crossing_share {
        Some(share) if ecmp::applies(f.role) => share,
        _ if ecmp::applies(f.role) => {
            ecmp::usable_share(f.technology.transport(), &spec.calibration, plan)
        }
        _ => 1.0,
    };
    Links::new(&spec.cluster, gpu, f, &spec.calibration, conditions).on_plan(
        plan,
        f.oversubscription.leaf,
        attached_nodes(spec, f),
        ports_per_node(&spec.cluster, f),
        multipath,
    )
}

/// Validates `spec` and computes its report. Never panics; an invalid spec returns every error.
pub fn evaluate(spec: &DesignSpec) -> Result<Report, SpecErrors> {
    evaluate_with(spec, Conditions::NORMAL)
}

/// [`evaluate`] under what-if `conditions` (a degraded link, congestion).
pub fn evaluate_with(spec: &DesignSpec, conditions: Conditions) -> Result<Report, SpecErrors> {
    evaluate_laying(spec, conditions, &mut LastFloor::default())
}

/// [`evaluate`], laying the floor only where it differs from the one `last` keeps from the
/// previous evaluation, and keeping this one's: the planner evaluates the design on every edit,
/// and an edit that moves no cable (a workload's batch, a target) then costs the sizing alone.
/// The same report as [`evaluate`], to the bit.
pub fn evaluate_reusing(spec: &DesignSpec, last: &mut LastFloor) -> Result<Report, SpecErrors> {
    evaluate_laying(spec, Conditions::NORMAL, last)
}

/// [`evaluate`], the floor taken from `floors` when it was laid there lately, else laid and
/// kept there: for evaluations of many designs and requests that lay the same floors again
/// (the technology comparison of a design being edited). The same report as [`evaluate`], to
/// the bit.
pub fn evaluate_sharing(spec: &DesignSpec, floors: &SharedFloors) -> Result<Report, SpecErrors> {
    let placed = |spec: &DesignSpec, fabrics: &mut [FabricReport], totals: &Totals| {
        (Some(floors.place_bills(spec, fabrics, totals)), ())
    };
    evaluate_report(spec, Conditions::NORMAL, placed).map(|(report, ())| report)
}

/// [`evaluate_with`], its floor laid through `last`: one body for both (the browser's bundle
/// carries one).
fn evaluate_laying(
    spec: &DesignSpec,
    conditions: Conditions,
    last: &mut LastFloor,
) -> Result<Report, SpecErrors> {
    let placed = |spec: &DesignSpec, fabrics: &mut [FabricReport], totals: &Totals| {
        (Some(last.place_bills(spec, fabrics, totals)), ())
    };
    evaluate_report(spec, conditions, placed).map(|(report, ())| report)
}

/// [`evaluate`], the floor's plan taken from `floors` where one laid alike was kept there, else
/// the floor laid for its plan ([`crate::evaluate_placed_sharing`]).
pub(crate) fn evaluate_planned(
    spec: &DesignSpec,
    floors: &SharedFloors,
) -> Result<(Report, crate::floor::Planned), SpecErrors> {
    let planned = |spec: &DesignSpec, fabrics: &mut [FabricReport], totals: &Totals| {
        let (network, planned) = floors.place_for_plan(spec, fabrics, totals);
        (Some(network), planned)
    };
    evaluate_report(spec, Conditions::NORMAL, planned)
}

/// [`evaluate`], with the floor the design is laid on kept for its plan
/// ([`crate::floor::plan`]), so that the bill as placed and the floor plan come from one
/// laying of the floor; its cables and optics are also kept in `last`, for an evaluation of
/// the same design through it ([`evaluate_reusing`]).
pub(crate) fn evaluate_laid(
    spec: &DesignSpec,
    last: &mut LastFloor,
) -> Result<(Report, Laid), SpecErrors> {
    let laid = |spec: &DesignSpec, fabrics: &mut [FabricReport], totals: &Totals| {
        let mut laid = Laid::new(spec, fabrics);
        last.keep(spec, fabrics, &laid);
        let network = laid.place_bills(fabrics, totals, spec.cluster.gpus());
        (Some(network), laid)
    };
    evaluate_report(spec, Conditions::NORMAL, laid)
}

/// [`evaluate_with`] without placing the design on its floor: [`Report::placed`] is absent,
/// and the time it takes does not grow with the number of cables. For what reads no cost as
/// placed: the search, which compares the fabrics' bills and evaluates each fabric alone (a
/// floor of one fabric would mean nothing), and the studies' sweeps of workload timings.
pub fn evaluate_unplaced(spec: &DesignSpec, conditions: Conditions) -> Result<Report, SpecErrors> {
    let unplaced = |_: &DesignSpec, _: &mut [FabricReport], _: &Totals| (None, ());
    evaluate_report(spec, conditions, unplaced).map(|(report, ())| report)
}

/// Each workload's report of `spec` under `conditions`, worked lines left out, and nothing
/// else: no fabric's bill, no finding, no floor. For what reads the workloads' times alone
/// (the studies' sweeps, a failure's or a tenant's neighbours' effect, the assumptions a verdict
/// rests on), at about a fifth of [`evaluate_unplaced`]'s time. The values are
/// [`evaluate_unplaced`]'s, to the bit.
pub fn evaluate_workloads(
    spec: &DesignSpec,
    conditions: Conditions,
) -> Result<Vec<WorkloadReport>, SpecErrors> {
    crate::figure::values_only(|| SizedDesign::new(spec, conditions)).map(|s| s.workloads)
}

/// `spec` validated, its switches chosen, each fabric sized and its links worked out, its
/// tenants and workloads placed, and each workload's report: what a report is built on.
struct SizedDesign<'a> {
    spec: Cow<'a, DesignSpec>,
    gpu: &'static Gpu,
    choices: Vec<Option<crate::switch_choice::SwitchChoice>>,
    plans: Vec<Plan>,
    links: Vec<(Links, Links)>,
    tenants: Vec<TenantPlacement>,
    allocations: Vec<Option<Allocation>>,
    workloads: Vec<WorkloadReport>,
}

impl<'a> SizedDesign<'a> {
    // Inlined into the one evaluation the browser's bundle carries, which measured smaller so.
    #[inline(always)]
    fn new(spec: &'a DesignSpec, conditions: Conditions) -> Result<Self, SpecErrors> {
        spec.validate()?;
        let (chosen, choices) = switch_choice::choose_all(spec);
        let gpu = gpu(&chosen.cluster.gpu)
            .ok_or_else(|| SpecErrors::single("cluster.gpu", "is not in the catalog"))?;
        let mut errors = Vec::new();
        let mut plans = Vec::with_capacity(chosen.fabrics.len());
        for (i, fabric) in chosen.fabrics.iter().enumerate() {
            let sized_on = switch(fabric.switch_key())
                .ok_or_else(|| "the switch is not in the catalog".to_string());
            match sized_on.and_then(|on| size_fabric(&chosen, fabric, on)) {
                Ok(plan) => plans.push(plan),
                Err(reason) => errors.push(FieldError::new(format!("fabrics[{i}]"), reason)),
            }
        }
        if !errors.is_empty() {
            return Err(SpecErrors(errors));
        }
        let links: Vec<(Links, Links)> = chosen
            .fabrics
            .iter()
            .zip(&plans)
            .map(|(f, plan)| {
                (
                    links_on_plan(&chosen, gpu, f, plan, conditions),
                    Links::new(
                        &chosen.cluster,
                        gpu,
                        f,
                        &chosen.calibration,
                        Conditions::IDEAL,
                    ),
                )
            })
            .collect();
        let (tenants, allocations) = allocate(&chosen, &plans)?;
        let workloads: Vec<WorkloadReport> = chosen
            .workloads
            .iter()
            .zip(&allocations)
            .map(|(w, allocation)| {
                let index = chosen
                    .fabrics
                    .iter()
                    .position(|f| f.name == w.fabric())
                    .unwrap_or(0);
                let (actual, ideal) = &links[index];
                let replicas = allocation.as_ref().map_or(1, |a| a.replicas.max(1));
                workload(w, gpu, actual, ideal, replicas)
            })
            .collect();
        Ok(SizedDesign {
            spec: chosen,
            gpu,
            choices,
            plans,
            links,
            tenants,
            allocations,
            workloads,
        })
    }
}

/// `spec` evaluated under `conditions`; `floor` lays as much of the floor as the caller needs
/// (none, enough to price each fabric's bill as placed, or all of it, kept for the plan) on
/// the design with its switches chosen, and gives the network's totals as placed, if placed.
fn evaluate_report<L>(
    spec: &DesignSpec,
    conditions: Conditions,
    floor: impl FnOnce(&DesignSpec, &mut [FabricReport], &Totals) -> (Option<Totals>, L),
) -> Result<(Report, L), SpecErrors> {
    let SizedDesign {
        spec,
        gpu,
        choices,
        plans,
        links,
        tenants,
        allocations,
        workloads,
    } = SizedDesign::new(spec, conditions)?;
    let spec = spec.as_ref();
    let mut fabrics: Vec<FabricReport> = spec
        .fabrics
        .iter()
        .zip(plans)
        .zip(&links)
        .zip(choices)
        .map(|(((fabric, plan), (actual, _)), choice)| {
            let mut report = fabric_report(spec, fabric, plan, actual, &workloads);
            report.switch_choice = choice;
            report
        })
        .collect();
    attach_first_nodes(spec, &mut fabrics, &allocations);
    let findings = findings::findings(spec, &fabrics, &workloads, &allocations);
    let gpus = spec.cluster.gpus();
    let totals = Totals::new(
        fabrics.iter().map(|f| f.cost_usd).sum(),
        fabrics.iter().map(|f| f.power_w).sum(),
        gpus,
    );
    // Placed on its floor, each fabric's bill is the one to order, at each cable's routed length;
    // `totals` keeps the nominal runs' figures for comparison.
    let (placed, laid) = floor(spec, &mut fabrics, &totals);
    let network = placed.as_ref().unwrap_or(&totals);
    let headline = headline(&fabrics, &workloads, &findings, network.cost_per_gpu_usd);
    let report = Report {
        engine_version: crate::report::ENGINE_VERSION.to_string(),
        cluster: ClusterSummary {
            gpu: gpu.name.to_string(),
            nodes: spec.cluster.nodes,
            gpus,
            gpus_per_node: spec.cluster.gpus_per_node,
            scale_up: links.first().map(|(l, _)| l.scale_up).unwrap_or_default(),
        },
        fabrics,
        workloads,
        findings,
        totals,
        placed,
        headline,
        allocations: allocations.into_iter().flatten().collect(),
        failures: Vec::new(),
        goodput: Vec::new(),
        phases: None,
        tenants,
        isolation_costs: Vec::new(),
        uncertainty: Vec::new(),
        interference: Vec::new(),
    };
    Ok((report, laid))
}

/// The tenants of `spec`, whose fabrics are sized as `plans`, and where each workload runs:
/// tenants first, each on whole scalable units or within one where it fits; the workloads then
/// within their tenant's nodes.
pub(crate) fn allocate(
    spec: &DesignSpec,
    plans: &[Plan],
) -> Result<(Vec<TenantPlacement>, Vec<Option<Allocation>>), SpecErrors> {
    let per_unit = crate::tenancy::unit_nodes(spec, plans);
    let tenants = crate::tenancy::place(spec, per_unit).map_err(SpecErrors)?;
    let allocations =
        crate::allocation::allocate_within(spec, &crate::tenancy::windows(spec, &tenants));
    Ok((tenants, allocations))
}

/// Where each fabric of fewer nodes than the cluster starts: at the first node its workloads
/// run on (`allocations`), so that it attaches the nodes they use.
pub(crate) fn attach_first_nodes(
    spec: &DesignSpec,
    fabrics: &mut [FabricReport],
    allocations: &[Option<Allocation>],
) {
    for f in fabrics {
        f.first_node = first_node(spec, f, allocations);
    }
}

/// Where fabric `f` of `spec` starts ([`attach_first_nodes`]).
pub(crate) fn first_node(
    spec: &DesignSpec,
    f: &FabricReport,
    allocations: &[Option<Allocation>],
) -> u32 {
    if f.attached_nodes >= spec.cluster.nodes {
        return f.first_node;
    }
    let first = allocations
        .iter()
        .flatten()
        .filter(|a| a.fabric == f.name && a.nodes > 0)
        .map(|a| a.first_node)
        .min()
        .unwrap_or(1);
    first.min(spec.cluster.nodes - f.attached_nodes + 1).max(1)
}

/// Workload `w`'s report; `replicas` are an inference service's, as placed.
fn workload(
    w: &Workload,
    gpu: &Gpu,
    links: &Links,
    ideal: &Links,
    replicas: u32,
) -> WorkloadReport {
    match w {
        Workload::Training(t) => WorkloadReport::Training(training::training(t, gpu, links, ideal)),
        Workload::Inference(i) => {
            WorkloadReport::Inference(inference::inference(i, links, ideal, replicas))
        }
        Workload::Rag(r) => WorkloadReport::Rag(rag::rag(r, links)),
        Workload::Storage(s) => WorkloadReport::Storage(storage::storage(s, links)),
    }
}

fn fabric_report(
    spec: &DesignSpec,
    fabric: &Fabric,
    plan: Plan,
    links: &Links,
    workloads: &[WorkloadReport],
) -> FabricReport {
    // Validated and sized above, so the switch exists.
    let switch = switch(fabric.switch_key()).unwrap_or(&crate::catalog::SWITCHES[0]);
    let speed = fabric.port_gbps();
    let m = materials(&plan, switch, speed, &fabric.cable_runs, &spec.overrides);
    let nodes = attached_nodes(spec, fabric);
    let ppn = ports_per_node(&spec.cluster, fabric);
    let mapped: Vec<&WorkloadReport> = spec
        .workloads
        .iter()
        .zip(workloads)
        .filter(|(w, _)| w.fabric() == fabric.name)
        .map(|(_, r)| r)
        .collect();
    let demand = headroom::demand(&mapped, nodes);
    let tiers = headroom::tiers(&plan, nodes, ppn, links.port, demand, links.multipath_share);
    let bottleneck = headroom::bottleneck(&tiers);
    let port = BitRate::gbps(speed);
    let leaf_spine = if plan.leaf_spine_links > 0 {
        port * f64::from(plan.leaf_spine_links)
    } else {
        port * f64::from(plan.node_leaf_links)
    };
    let edge = port * f64::from(plan.node_leaf_links);
    let bisection = if leaf_spine.bits_per_second() < edge.bits_per_second() {
        leaf_spine
    } else {
        edge
    } / 2.0;
    let extra = fabric.extra_endpoints;
    FabricReport {
        name: fabric.name.clone(),
        role: fabric.role,
        technology: fabric.technology,
        port_rate: port,
        switch: switch.key.to_string(),
        switch_name: switch.name.to_string(),
        switch_choice: None,
        attached_nodes: nodes,
        first_node: 1,
        ports_per_node: ppn,
        endpoints: plan.node_leaf_links,
        ports_used: plan.ports_used(),
        ports_free: plan.ports_total().saturating_sub(plan.ports_used()),
        max_nodes: plan.capacity_endpoints.saturating_sub(extra) / ppn.max(1),
        bisection: Figure::new(
            bisection,
            "min(edge ports, leaf uplinks) × port speed ÷ 2 (non-blocking: N/2 × port speed)",
            "Al-Fares, Loukissas & Vahdat, SIGCOMM 2008 (folded Clos)",
        ),
        oversubscription: fabric.oversubscription.leaf,
        cables: m.cables,
        transceivers: m.transceivers,
        cost_usd: m.lines.iter().map(|l| l.total_usd).sum(),
        power_w: m.lines.iter().map(|l| l.total_power_w).sum(),
        bom: m.lines,
        tiers,
        bottleneck,
        workloads: mapped.iter().map(|w| w.name().to_string()).collect(),
        plan,
    }
}

fn headline(
    fabrics: &[FabricReport],
    workloads: &[WorkloadReport],
    findings: &[crate::report::Finding],
    cost_per_gpu: Usd,
) -> Headline {
    let max = |a: Option<f64>, b: f64| Some(a.map_or(b, |a| a.max(b)));
    let min = |a: Option<f64>, b: f64| Some(a.map_or(b, |a| a.min(b)));
    let (mut slowdown, mut latency, mut read, mut checkpoint) = (None, None, None, None);
    let mut inter_token: Option<TargetVerdict> = None;
    for w in workloads {
        match w {
            WorkloadReport::Training(t) => {
                if let Some(s) = &t.slowdown {
                    slowdown = max(slowdown, s.value.factor());
                }
            }
            WorkloadReport::Inference(i) => {
                latency = max(latency, i.network_added_per_token.value.seconds());
                let verdict = i.inter_token_verdict();
                if inter_token.is_none_or(|worst| verdict.margin() < worst.margin()) {
                    inter_token = Some(verdict);
                }
            }
            WorkloadReport::Storage(s) => {
                read = min(read, s.read_headroom.value.get());
                if s.write_budget.seconds() > 0.0 {
                    checkpoint = max(
                        checkpoint,
                        s.checkpoint_write_time.value.seconds() / s.write_budget.seconds(),
                    );
                }
            }
            WorkloadReport::Rag(_) => {}
        }
    }
    Headline {
        worst_training_slowdown: slowdown.map(Slowdown::new),
        worst_added_latency_per_token: latency.map(Seconds::new),
        worst_inter_token: inter_token,
        storage_read_headroom: read.map(Ratio::new),
        checkpoint_time_over_budget: checkpoint.map(Share::new),
        switches: fabrics.iter().map(|f| f.plan.switches()).sum(),
        cost_per_gpu_usd: cost_per_gpu,
        critical_findings: findings
            .iter()
            .filter(|f| f.severity == Severity::Critical)
            .count() as u32,
        warnings: findings
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .count() as u32,
    }
}
