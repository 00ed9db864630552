use super::follow;
use super::lens::{self, whole};
use super::options::{self, CUSTOM};
use crate::fields::{Kind, NumInput, SelectInput, TextInput};
use crate::templates::apply_node_preset;
use leptos::prelude::*;

/// Step 1: the GPU nodes.
#[component]
pub fn ClusterStep() -> AnyView {
    let (title, set_title) = lens::spec(|s| s.title.clone(), |s, v| s.title = v);
    let (preset, set_preset) = lens::spec(
        |s| {
            s.cluster
                .node_preset
                .clone()
                .unwrap_or_else(|| CUSTOM.into())
        },
        |s, key: String| follow::cluster_change(s, |s| apply_node_preset(s, &key)),
    );
    let (gpu, set_gpu) = lens::spec(
        |s| s.cluster.gpu.clone(),
        |s, key: String| {
            s.cluster.gpu = key;
            s.cluster.node_preset = None;
        },
    );
    let (nodes, set_nodes) = lens::spec(
        |s| Some(f64::from(s.cluster.nodes)),
        |s, v: Option<f64>| {
            if let Some(v) = v {
                follow::cluster_change(s, |s| s.cluster.nodes = whole(v));
            }
        },
    );
    let (gpn, set_gpn) = lens::spec(
        |s| Some(f64::from(s.cluster.gpus_per_node)),
        |s, v: Option<f64>| {
            if let Some(v) = v {
                follow::cluster_change(s, |s| {
                    s.cluster.gpus_per_node = whole(v);
                    s.cluster.node_preset = None;
                });
            }
        },
    );
    let (nics, set_nics) = lens::cluster(
        |c| f64::from(c.nics_per_node),
        |c, v| {
            c.nics_per_node = whole(v);
            c.node_preset = None;
        },
    );
    let (growth, set_growth) = lens::spec(
        |s| s.cluster.growth_target_nodes.map(f64::from),
        |s, v: Option<f64>| s.cluster.growth_target_nodes = v.map(whole),
    );
    view! {
        <TextInput path="title".into() label="Design title" value=title set=set_title/>
        <SelectInput path="cluster.node_preset".into() label="Node type" options=options::node_presets() value=preset set=set_preset/>
        <SelectInput path="cluster.gpu".into() label="GPU" options=options::gpus() value=gpu set=set_gpu/>
        <div class="field-row">
            <NumInput path="cluster.gpus_per_node".into() label="GPUs per node" kind=Kind::Count value=gpn set=set_gpn/>
            <NumInput path="cluster.nics_per_node".into() label="Compute NICs per node" help="one per rail" kind=Kind::Count value=nics set=set_nics/>
        </div>
        <div class="field-row">
            <NumInput path="cluster.nodes".into() label="Nodes" kind=Kind::Count value=nodes set=set_nodes/>
            <NumInput
                path="cluster.growth_target_nodes".into()
                label="Grow to (nodes)"
                help="spines are provisioned for it; empty for none"
                kind=Kind::Count
                optional=true
                value=growth
                set=set_growth
            />
        </div>
        <super::growth::GrowthFields/>
    }
    .into_any()
}
