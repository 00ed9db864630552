//! The workloads step of the wizard: a card per workload with the fields of its kind
//! (training, inference, RAG, storage). Over 400 lines because the four kinds share the card,
//! its name and fabric fields and the model fields.

use super::lens::{self, model_of, model_of_mut, whole};
use super::options::{self, CUSTOM};
use crate::editor::Editor;
use crate::fields::{Kind, NumInput, SelectInput, TextInput};
use crate::templates::{apply_model_preset, workload};
use engine::{Bytes, Gigabytes, GigabytesPerSecond, Millis, Minutes, PerSecond, Seconds};
use engine::{Compute, Precision, Workload};
use leptos::prelude::*;

/// Step 2: what the cluster runs.
#[component]
pub fn WorkloadsStep() -> AnyView {
    let editor = Editor::get();
    // Re-render the cards only when workloads are added, removed or change kind, so that
    // typing never rebuilds the input being typed into.
    let kinds = Memo::new(move |_| {
        editor
            .spec
            .with(|s| s.workloads.iter().map(Workload::kind).collect::<Vec<_>>())
    });
    let add = move |kind: &'static str| {
        move |_| {
            editor.update(|s| {
                let w = workload(s, kind);
                s.workloads.push(w);
            })
        }
    };
    view! {
        <div class="cards">
            {move || {
                kinds
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, kind)| view! { <WorkloadCard i kind/> })
                    .collect_view()
            }}
        </div>
        <p class="empty" class:hidden=move || !kinds.with(|k| k.is_empty())>"No workloads yet: add one."</p>
        <div class="actions" role="group" aria-label="Add a workload">
            <button type="button" class="secondary" id="add-training" on:click=add("training")>"+ Training"</button>
            <button type="button" class="secondary" id="add-inference" on:click=add("inference")>"+ Inference"</button>
            <button type="button" class="secondary" id="add-rag" on:click=add("rag")>"+ RAG"</button>
            <button type="button" class="secondary" id="add-storage" on:click=add("storage")>"+ Storage"</button>
        </div>
    }
    .into_any()
}

#[component]
fn WorkloadCard(i: usize, kind: &'static str) -> AnyView {
    let editor = Editor::get();
    let at = format!("workloads[{i}]");
    let (name, set_name) = lens::workload_choice(i, |w| w.name().to_string(), set_name);
    let fabric_names = Signal::derive(move || {
        editor.spec.with(|s| {
            s.fabrics
                .iter()
                .map(|f| (f.name.clone(), f.name.clone()))
                .collect::<Vec<_>>()
        })
    });
    let (fabric, set_fabric) = lens::workload_choice(i, |w| w.fabric().to_string(), set_fabric);
    let remove = move |_| {
        editor.update(|s| {
            if i < s.workloads.len() {
                s.workloads.remove(i);
            }
        });
        editor.clear_unparsed_under("workloads[");
    };
    let fields = match kind {
        "training" => view! { <ModelFields i/><TrainingFields i/> }.into_any(),
        "inference" => view! { <ModelFields i/><InferenceFields i/> }.into_any(),
        "rag" => view! { <RagFields i/> }.into_any(),
        _ => view! { <StorageFields i/> }.into_any(),
    };
    view! {
        <fieldset class="card workload" id=format!("workload-{i}")>
            <legend>{format!("{} workload {}", options::kind_label(kind), i + 1)}</legend>
            <div class="field-row">
                <TextInput path=format!("{at}.name") label="Name" value=name set=set_name/>
                <SelectInput path=format!("{at}.fabric") label="Carried by fabric" options=fabric_names value=fabric set=set_fabric/>
            </div>
            {fields}
            <button type="button" class="remove" id=format!("remove-workload-{i}") on:click=remove>"Remove workload"</button>
        </fieldset>
    }
    .into_any()
}

fn set_name(w: &mut Workload, v: &str) {
    let v = v.to_string();
    match w {
        Workload::Training(t) => t.name = v,
        Workload::Inference(x) => x.name = v,
        Workload::Rag(r) => r.name = v,
        Workload::Storage(s) => s.name = v,
    }
}

fn set_fabric(w: &mut Workload, v: &str) {
    let v = v.to_string();
    match w {
        Workload::Training(t) => t.fabric = v,
        Workload::Inference(x) => x.fabric = v,
        Workload::Rag(r) => r.fabric = v,
        Workload::Storage(s) => s.fabric = v,
    }
}

#[component]
fn ModelFields(i: usize) -> AnyView {
    let at = format!("workloads[{i}].model");
    let (preset, set_preset) = lens::workload_choice(
        i,
        |w| {
            model_of(w)
                .and_then(|m| m.preset.clone())
                .unwrap_or_else(|| CUSTOM.into())
        },
        |w, key| {
            if let Some(m) = model_of_mut(w) {
                apply_model_preset(m, key);
            }
        },
    );
    let (precision, set_precision) = lens::workload_choice(
        i,
        |w| {
            model_of(w)
                .map(|m| m.precision.key().to_string())
                .unwrap_or_default()
        },
        |w, key| {
            if let (Some(m), Some(p)) = (model_of_mut(w), Precision::from_key(key)) {
                m.precision = p;
            }
        },
    );
    let (params, set_params) =
        lens::model(i, |m| m.parameters / 1e9, |m, v| m.parameters = v * 1e9);
    let (layers, set_layers) = lens::model(i, |m| f64::from(m.layers), |m, v| m.layers = whole(v));
    let (hidden, set_hidden) = lens::model(i, |m| f64::from(m.hidden), |m, v| m.hidden = whole(v));
    let (seq, set_seq) = lens::model(
        i,
        |m| f64::from(m.sequence_length),
        |m, v| m.sequence_length = whole(v),
    );
    view! {
        <div class="field-row">
            <SelectInput path=format!("{at}.preset") label="Model" options=options::model_presets() value=preset set=set_preset/>
            <SelectInput path=format!("{at}.precision") label="Precision" options=options::precisions() value=precision set=set_precision/>
        </div>
        <div class="field-row">
            <NumInput path=format!("{at}.parameters") label="Parameters" unit="billion" value=params set=set_params/>
            <NumInput path=format!("{at}.layers") label="Layers" kind=Kind::Count value=layers set=set_layers/>
            <NumInput path=format!("{at}.hidden") label="Hidden size" kind=Kind::Count value=hidden set=set_hidden/>
            <NumInput path=format!("{at}.sequence_length") label="Sequence length" unit="tokens" kind=Kind::Count value=seq set=set_seq/>
        </div>
    }
    .into_any()
}

#[component]
fn TrainingFields(i: usize) -> AnyView {
    let at = format!("workloads[{i}]");
    let (dp, set_dp) = lens::training(
        i,
        |t| f64::from(t.parallelism.dp),
        |t, v| t.parallelism.dp = whole(v),
    );
    let (tp, set_tp) = lens::training(
        i,
        |t| f64::from(t.parallelism.tp),
        |t, v| t.parallelism.tp = whole(v),
    );
    let (pp, set_pp) = lens::training(
        i,
        |t| f64::from(t.parallelism.pp),
        |t, v| t.parallelism.pp = whole(v),
    );
    let (ep, set_ep) = lens::training(
        i,
        |t| f64::from(t.parallelism.ep),
        |t, v| t.parallelism.ep = whole(v),
    );
    let (sharding, set_sharding) = lens::workload_choice(
        i,
        |w| match w {
            Workload::Training(t) => options::sharding_key(t.parallelism.sharding).to_string(),
            _ => String::new(),
        },
        |w, key| {
            if let (Workload::Training(t), Some(s)) = (w, options::sharding_from(key)) {
                t.parallelism.sharding = s;
            }
        },
    );
    let editor = crate::editor::Editor::get();
    let global = Signal::derive(move || {
        editor.spec.with(|s| match s.workloads.get(i) {
            Some(Workload::Training(t)) => Some(f64::from(t.global_batch)),
            _ => None,
        })
    });
    let set_global = Callback::new(move |v: Option<f64>| {
        if let Some(v) = v {
            editor.update(|s| super::follow::global_batch(s, i, whole(v)));
        }
    });
    let (micro, set_micro) = lens::training(
        i,
        |t| f64::from(t.micro_batch),
        |t, v| t.micro_batch = whole(v),
    );
    let (mfu, set_mfu) = lens::training(
        i,
        |t| match t.compute {
            Compute::Mfu(m) => m,
            Compute::StepSeconds(_) => 0.0,
        },
        |t, v| t.compute = Compute::Mfu(v),
    );
    let (overlap, set_overlap) = lens::training(i, |t| t.overlap, |t, v| t.overlap = v);
    let (recompute, set_recompute) = lens::workload_choice(
        i,
        |w| match w {
            Workload::Training(t) => t.recompute.label().to_string(),
            _ => String::new(),
        },
        |w, key| {
            if let (Workload::Training(t), Some(r)) = (w, options::recompute_from(key)) {
                t.recompute = r;
            }
        },
    );
    let parallelism_error = Editor::get().error(format!("{at}.parallelism"));
    let (first, set_first) = lens::training_optional(
        i,
        |t| t.first_node.map(f64::from),
        |t, v| t.first_node = v.map(whole),
    );
    view! {
        <div class="field-row">
            <NumInput path=format!("{at}.parallelism.dp") label="Data parallel (DP)" kind=Kind::Count value=dp set=set_dp/>
            <NumInput path=format!("{at}.parallelism.tp") label="Tensor parallel (TP)" kind=Kind::Count value=tp set=set_tp/>
            <NumInput path=format!("{at}.parallelism.pp") label="Pipeline parallel (PP)" kind=Kind::Count value=pp set=set_pp/>
            <NumInput path=format!("{at}.parallelism.ep") label="Expert parallel (EP)" kind=Kind::Count value=ep set=set_ep/>
        </div>
        <p class="field-error" id=format!("workloads-{i}-parallelism-error") role="alert">{move || parallelism_error.get()}</p>
        <div class="field-row">
            <SelectInput path=format!("{at}.parallelism.sharding") label="Sharding" options=options::shardings() value=sharding set=set_sharding/>
            <NumInput path=format!("{at}.global_batch") label="Global batch" unit="sequences" kind=Kind::Count value=global set=set_global/>
            <NumInput path=format!("{at}.micro_batch") label="Micro-batch" unit="sequences" kind=Kind::Count value=micro set=set_micro/>
        </div>
        <div class="field-row">
            <NumInput path=format!("{at}.compute.mfu") label="Model FLOPs utilisation" help="fraction of the GPU's dense peak, 0-1" value=mfu set=set_mfu/>
            <NumInput path=format!("{at}.overlap") label="Compute/communication overlap" help="fraction of compute that hides gradient traffic, 0-1" value=overlap set=set_overlap/>
        </div>
        <div class="field-row">
            <SelectInput path=format!("{at}.recompute") label="Activation recomputation" options=options::recomputations() value=recompute set=set_recompute/>
            <NumInput path=format!("{at}.first_node") label="Runs from node" help=RUNS_FROM_HELP kind=Kind::Count optional=true value=first set=set_first/>
        </div>
    }
    .into_any()
}

/// What an empty start leaves to the planner.
const RUNS_FROM_HELP: &str = "empty: the planner places it after the workloads before it";

#[component]
fn InferenceFields(i: usize) -> AnyView {
    let at = format!("workloads[{i}]");
    let (nodes, set_nodes) =
        lens::inference(i, |w| f64::from(w.tp_nodes), |w, v| w.tp_nodes = whole(v));
    let (decode, set_decode) = lens::inference(
        i,
        |w| f64::from(w.decode_tokens),
        |w, v| w.decode_tokens = whole(v),
    );
    let (prefill, set_prefill) = lens::inference(
        i,
        |w| f64::from(w.prefill_tokens),
        |w, v| w.prefill_tokens = whole(v),
    );
    let (itl, set_itl) = lens::inference(
        i,
        |w| w.target_inter_token_ms.millis(),
        |w, v| w.target_inter_token_ms = Millis::new(v),
    );
    let (replicas, set_replicas) = lens::inference_optional(
        i,
        |w| w.replicas.map(f64::from),
        |w, v| w.replicas = v.map(whole),
    );
    let (first, set_first) = lens::inference_optional(
        i,
        |w| w.first_node.map(f64::from),
        |w, v| w.first_node = v.map(whole),
    );
    view! {
        <div class="field-row">
            <NumInput path=format!("{at}.tp_nodes") label="Nodes per tensor-parallel group" kind=Kind::Count value=nodes set=set_nodes/>
            <NumInput path=format!("{at}.replicas") label="Replicas" help="empty: as many as the nodes left hold" kind=Kind::Count optional=true value=replicas set=set_replicas/>
            <NumInput path=format!("{at}.first_node") label="Runs from node" help=RUNS_FROM_HELP kind=Kind::Count optional=true value=first set=set_first/>
            <NumInput path=format!("{at}.decode_tokens") label="Tokens in flight per decode step" help="the decode batch" kind=Kind::Count value=decode set=set_decode/>
            <NumInput path=format!("{at}.prefill_tokens") label="Prefill tokens per forward pass" kind=Kind::CountOrZero value=prefill set=set_prefill/>
            <NumInput path=format!("{at}.target_inter_token_ms") label="Target inter-token latency" unit="ms" value=itl set=set_itl/>
        </div>
    }
    .into_any()
}

#[component]
fn RagFields(i: usize) -> AnyView {
    let at = format!("workloads[{i}]");
    let (qps, set_qps) = lens::rag(
        i,
        |w| w.queries_per_s.per_second(),
        |w, v| w.queries_per_s = PerSecond::new(v),
    );
    let (dim, set_dim) = lens::rag(
        i,
        |w| f64::from(w.embedding_dim),
        |w, v| w.embedding_dim = whole(v),
    );
    let (top_k, set_top_k) = lens::rag(i, |w| f64::from(w.top_k), |w, v| w.top_k = whole(v));
    let (chunk, set_chunk) = lens::rag(
        i,
        |w| w.chunk_bytes.bytes() / 1e3,
        |w, v| w.chunk_bytes = Bytes::new(v * 1e3),
    );
    let (budget, set_budget) = lens::rag(
        i,
        |w| w.latency_budget_ms.millis(),
        |w, v| w.latency_budget_ms = Millis::new(v),
    );
    let (precision, set_precision) = lens::workload_choice(
        i,
        |w| match w {
            Workload::Rag(r) => r.embedding_precision.key().to_string(),
            _ => String::new(),
        },
        |w, key| {
            if let (Workload::Rag(r), Some(p)) = (w, Precision::from_key(key)) {
                r.embedding_precision = p;
            }
        },
    );
    view! {
        <div class="field-row">
            <NumInput path=format!("{at}.queries_per_s") label="Queries" unit="per s" value=qps set=set_qps/>
            <NumInput path=format!("{at}.embedding_dim") label="Embedding dimension" kind=Kind::Count value=dim set=set_dim/>
            <SelectInput path=format!("{at}.embedding_precision") label="Embedding precision" options=options::precisions() value=precision set=set_precision/>
        </div>
        <div class="field-row">
            <NumInput path=format!("{at}.top_k") label="Chunks per query (top-k)" kind=Kind::Count value=top_k set=set_top_k/>
            <NumInput path=format!("{at}.chunk_bytes") label="Chunk size" unit="kB" value=chunk set=set_chunk/>
            <NumInput path=format!("{at}.latency_budget_ms") label="Retrieval latency budget" unit="ms" value=budget set=set_budget/>
        </div>
    }
    .into_any()
}

#[component]
fn StorageFields(i: usize) -> AnyView {
    let at = format!("workloads[{i}]");
    let (samples, set_samples) =
        lens::storage(i, |w| w.samples_per_step, |w, v| w.samples_per_step = v);
    let (sample_kb, set_sample_kb) = lens::storage(
        i,
        |w| w.sample_bytes.bytes() / 1e3,
        |w, v| w.sample_bytes = Bytes::new(v * 1e3),
    );
    let (steps, set_steps) = lens::storage(
        i,
        |w| w.steps_per_s.per_second(),
        |w, v| w.steps_per_s = PerSecond::new(v),
    );
    let (headroom, set_headroom) =
        lens::storage(i, |w| w.read_headroom, |w, v| w.read_headroom = v);
    let (size, set_size) = lens::storage_optional(
        i,
        |w| w.checkpoint.size_gb.map(Gigabytes::gigabytes),
        |w, v| w.checkpoint.size_gb = v.map(Gigabytes::new),
    );
    let (params, set_params) = lens::storage_optional(
        i,
        |w| w.checkpoint.parameters.map(|p| p / 1e9),
        |w, v| w.checkpoint.parameters = v.map(|b| b * 1e9),
    );
    let (interval, set_interval) = lens::storage(
        i,
        |w| w.checkpoint.interval_minutes.minutes(),
        |w, v| w.checkpoint.interval_minutes = Minutes::new(v),
    );
    let (budget, set_budget) = lens::storage(
        i,
        |w| w.checkpoint.write_budget_s.seconds(),
        |w, v| w.checkpoint.write_budget_s = Seconds::new(v),
    );
    let (read, set_read) = lens::storage_optional(
        i,
        |w| {
            w.system_read_gbytes_per_s
                .map(GigabytesPerSecond::gigabytes_per_second)
        },
        |w, v| w.system_read_gbytes_per_s = v.map(GigabytesPerSecond::new),
    );
    let (write, set_write) = lens::storage_optional(
        i,
        |w| {
            w.system_write_gbytes_per_s
                .map(GigabytesPerSecond::gigabytes_per_second)
        },
        |w, v| w.system_write_gbytes_per_s = v.map(GigabytesPerSecond::new),
    );
    let checkpoint_error = Editor::get().error(format!("{at}.checkpoint"));
    view! {
        <div class="field-row">
            <NumInput path=format!("{at}.samples_per_step") label="Samples per step" help="the global batch" value=samples set=set_samples/>
            <NumInput path=format!("{at}.sample_bytes") label="Sample size" unit="kB" value=sample_kb set=set_sample_kb/>
            <NumInput path=format!("{at}.steps_per_s") label="Steps" unit="per s" value=steps set=set_steps/>
            <NumInput path=format!("{at}.read_headroom") label="Read headroom" unit="×" help="2-3× for augmentation and shuffling peaks" value=headroom set=set_headroom/>
        </div>
        <div class="field-row">
            <NumInput path=format!("{at}.checkpoint.size_gb") label="Checkpoint size" unit="GB" help="empty: from parameters × 14 B" optional=true value=size set=set_size/>
            <NumInput path=format!("{at}.checkpoint.parameters") label="Checkpoint of a model of" unit="billion parameters" optional=true value=params set=set_params/>
            <NumInput path=format!("{at}.checkpoint.interval_minutes") label="Checkpoint every" unit="min" value=interval set=set_interval/>
            <NumInput path=format!("{at}.checkpoint.write_budget_s") label="Write budget" unit="s" value=budget set=set_budget/>
        </div>
        <p class="field-error" role="alert">{move || checkpoint_error.get()}</p>
        <div class="field-row">
            <NumInput path=format!("{at}.system_read_gbytes_per_s") label="Storage system read" unit="GB/s" help="empty: not limited" optional=true value=read set=set_read/>
            <NumInput path=format!("{at}.system_write_gbytes_per_s") label="Storage system write" unit="GB/s" help="empty: not limited" optional=true value=write set=set_write/>
        </div>
    }
    .into_any()
}
