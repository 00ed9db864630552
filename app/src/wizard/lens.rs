//! Reading and writing one field of the design being edited, as a signal and a callback for
//! the form controls.

use crate::editor::Editor;
use engine::{Cluster, DesignSpec, Fabric, Inference, Model, Rag, Storage, Training, Workload};
use leptos::prelude::*;

pub type Bound<T> = (Signal<T>, Callback<T>);

/// A field of the whole spec.
pub fn spec<T: Clone + Send + Sync + 'static>(
    get: fn(&DesignSpec) -> T,
    set: fn(&mut DesignSpec, T),
) -> Bound<T> {
    let editor = Editor::get();
    (
        Signal::derive(move || editor.spec.with(get)),
        Callback::new(move |v: T| editor.update(|s| set(s, v))),
    )
}

/// A numeric field of the cluster.
pub fn cluster(get: fn(&Cluster) -> f64, set: fn(&mut Cluster, f64)) -> Bound<Option<f64>> {
    let editor = Editor::get();
    (
        Signal::derive(move || editor.spec.with(|s| Some(get(&s.cluster)))),
        Callback::new(move |v: Option<f64>| {
            if let Some(v) = v {
                editor.update(|s| set(&mut s.cluster, v));
            }
        }),
    )
}

/// A numeric field of fabric `i`.
pub fn fabric(
    i: usize,
    get: fn(&Fabric) -> Option<f64>,
    set: fn(&mut Fabric, Option<f64>),
) -> Bound<Option<f64>> {
    let editor = Editor::get();
    (
        Signal::derive(move || editor.spec.with(|s| s.fabrics.get(i).and_then(get))),
        Callback::new(move |v: Option<f64>| {
            editor.update(|s| {
                if let Some(f) = s.fabrics.get_mut(i) {
                    set(f, v);
                }
            })
        }),
    )
}

/// A choice (as its key) of fabric `i`.
pub fn fabric_choice(
    i: usize,
    get: fn(&Fabric) -> String,
    set: fn(&mut Fabric, &str),
) -> Bound<String> {
    let editor = Editor::get();
    (
        Signal::derive(move || {
            editor
                .spec
                .with(|s| s.fabrics.get(i).map(get).unwrap_or_default())
        }),
        Callback::new(move |v: String| {
            editor.update(|s| {
                if let Some(f) = s.fabrics.get_mut(i) {
                    set(f, &v);
                }
            })
        }),
    )
}

macro_rules! workload_lens {
    ($name:ident, $variant:ident, $ty:ty) => {
        /// A numeric field of workload `i`, when it is of this kind.
        pub fn $name(i: usize, get: fn(&$ty) -> f64, set: fn(&mut $ty, f64)) -> Bound<Option<f64>> {
            let editor = Editor::get();
            (
                Signal::derive(move || {
                    editor.spec.with(|s| match s.workloads.get(i) {
                        Some(Workload::$variant(w)) => Some(get(w)),
                        _ => None,
                    })
                }),
                Callback::new(move |v: Option<f64>| {
                    if let Some(v) = v {
                        editor.update(|s| {
                            if let Some(Workload::$variant(w)) = s.workloads.get_mut(i) {
                                set(w, v);
                            }
                        })
                    }
                }),
            )
        }
    };
}

workload_lens!(training, Training, Training);
workload_lens!(inference, Inference, Inference);
workload_lens!(rag, Rag, Rag);
workload_lens!(storage, Storage, Storage);

macro_rules! optional_workload_lens {
    ($name:ident, $variant:ident, $ty:ty) => {
        /// An optional numeric field of workload `i`, when it is of this kind.
        pub fn $name(
            i: usize,
            get: fn(&$ty) -> Option<f64>,
            set: fn(&mut $ty, Option<f64>),
        ) -> Bound<Option<f64>> {
            let editor = Editor::get();
            (
                Signal::derive(move || {
                    editor.spec.with(|s| match s.workloads.get(i) {
                        Some(Workload::$variant(w)) => get(w),
                        _ => None,
                    })
                }),
                Callback::new(move |v: Option<f64>| {
                    editor.update(|s| {
                        if let Some(Workload::$variant(w)) = s.workloads.get_mut(i) {
                            set(w, v);
                        }
                    })
                }),
            )
        }
    };
}

optional_workload_lens!(storage_optional, Storage, Storage);
optional_workload_lens!(inference_optional, Inference, Inference);
optional_workload_lens!(training_optional, Training, Training);

/// The model of workload `i` (training and inference have one).
pub fn model_of(workload: &Workload) -> Option<&Model> {
    match workload {
        Workload::Training(t) => Some(&t.model),
        Workload::Inference(i) => Some(&i.model),
        _ => None,
    }
}

pub fn model_of_mut(workload: &mut Workload) -> Option<&mut Model> {
    match workload {
        Workload::Training(t) => Some(&mut t.model),
        Workload::Inference(i) => Some(&mut i.model),
        _ => None,
    }
}

/// A numeric field of the model of workload `i`.
pub fn model(i: usize, get: fn(&Model) -> f64, set: fn(&mut Model, f64)) -> Bound<Option<f64>> {
    let editor = Editor::get();
    (
        Signal::derive(move || {
            editor
                .spec
                .with(|s| s.workloads.get(i).and_then(model_of).map(get))
        }),
        Callback::new(move |v: Option<f64>| {
            if let Some(v) = v {
                editor.update(|s| {
                    if let Some(m) = s.workloads.get_mut(i).and_then(model_of_mut) {
                        set(m, v);
                        // An edited shape is no longer the preset.
                        m.preset = None;
                    }
                })
            }
        }),
    )
}

/// A choice (as its key) of workload `i`.
pub fn workload_choice(
    i: usize,
    get: fn(&Workload) -> String,
    set: fn(&mut Workload, &str),
) -> Bound<String> {
    let editor = Editor::get();
    (
        Signal::derive(move || {
            editor
                .spec
                .with(|s| s.workloads.get(i).map(get).unwrap_or_default())
        }),
        Callback::new(move |v: String| {
            editor.update(|s| {
                if let Some(w) = s.workloads.get_mut(i) {
                    set(w, &v);
                }
            })
        }),
    )
}

/// Whole numbers from the form: negative or fractional text is refused before it gets here.
pub fn whole(v: f64) -> u32 {
    v.clamp(0.0, f64::from(u32::MAX)) as u32
}
