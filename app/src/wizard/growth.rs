//! The cluster's growth phases in the cluster step: a row per phase (its label, date and nodes)
//! and how the fabric grows through them. The last phase is the design, and follows its nodes.

use crate::editor::Editor;
use crate::fields::{Kind, NumInput, SelectInput, TextInput};
use engine::{DesignSpec, Growth, GrowthPolicy, Phase};
use leptos::prelude::*;

const POLICIES: [(GrowthPolicy, &str); 2] = [
    (GrowthPolicy::ProvisionFinal, "provision_final"),
    (GrowthPolicy::AsNeeded, "as_needed"),
];

#[component]
pub fn GrowthFields() -> AnyView {
    let editor = Editor::get();
    let phases = Memo::new(move |_| {
        editor
            .spec
            .with(|s| s.growth.as_ref().map_or(0, |g| g.phases.len()))
    });
    let policy = Signal::derive(move || {
        let now = editor
            .spec
            .with(|s| s.growth.as_ref().map(|g| g.policy).unwrap_or_default());
        POLICIES
            .iter()
            .find(|(p, _)| *p == now)
            .map_or("", |(_, key)| key)
            .to_string()
    });
    let set_policy = Callback::new(move |key: String| {
        editor.update(|s| {
            if let (Some(g), Some((p, _))) =
                (s.growth.as_mut(), POLICIES.iter().find(|(_, k)| *k == key))
            {
                g.policy = *p;
            }
        })
    });
    let options = Signal::derive(|| {
        POLICIES
            .iter()
            .map(|(p, key)| (key.to_string(), p.label().to_string()))
            .collect::<Vec<_>>()
    });
    view! {
        <fieldset class="card growth" id="growth">
            <legend>"Growth phases"</legend>
            <p class="note">"Install the cluster in phases, the last being this design: the report gives each phase's bill, the ports and racks it leaves for later, and the cables each step adds and moves."</p>
            {move || (phases.get() > 0).then(|| view! {
                <SelectInput path="growth.policy".into() label="How the fabric grows" options value=policy set=set_policy/>
            })}
            {move || (0..phases.get()).map(|i| view! { <PhaseRow i last=i + 1 == phases.get()/> }).collect_view()}
            <button type="button" class="secondary" id="add-phase" on:click=move |_| editor.update(add_phase)>"+ Phase"</button>
        </fieldset>
    }
    .into_any()
}

#[component]
fn PhaseRow(i: usize, last: bool) -> AnyView {
    let editor = Editor::get();
    let at = format!("growth.phases[{i}]");
    let get = move |read: fn(&Phase) -> String| {
        Signal::derive(move || {
            editor.spec.with(|s| {
                s.growth
                    .as_ref()
                    .and_then(|g| g.phases.get(i))
                    .map(read)
                    .unwrap_or_default()
            })
        })
    };
    let set = move |write: fn(&mut Phase, String)| {
        Callback::new(move |v: String| {
            editor.update(|s| {
                if let Some(p) = s.growth.as_mut().and_then(|g| g.phases.get_mut(i)) {
                    write(p, v);
                }
            })
        })
    };
    let nodes = Signal::derive(move || {
        editor.spec.with(|s| {
            s.growth
                .as_ref()
                .and_then(|g| g.phases.get(i))
                .map(|p| f64::from(p.nodes))
        })
    });
    let set_nodes = Callback::new(move |v: Option<f64>| {
        editor.update(|s| {
            if let (Some(p), Some(v)) = (s.growth.as_mut().and_then(|g| g.phases.get_mut(i)), v) {
                p.nodes = super::lens::whole(v);
            }
        })
    });
    let remove = move |_| {
        editor.update(|s| remove_phase(s, i));
        editor.clear_unparsed_under("growth.");
    };
    view! {
        <div class="field-row phase" id=format!("phase-{i}")>
            <TextInput path=format!("{at}.label") label="Phase" value=get(|p| p.label.clone()) set=set(|p, v| p.label = v)/>
            <TextInput path=format!("{at}.date") label="Date (YYYY-MM)" value=get(|p| p.date.clone().unwrap_or_default()) set=set(|p, v| p.date = (!v.trim().is_empty()).then(|| v.trim().to_string()))/>
            {if last {
                view! { <p class="note">"Nodes: the design's"</p> }.into_any()
            } else {
                view! { <NumInput path=format!("{at}.nodes") label="Nodes" kind=Kind::Count value=nodes set=set_nodes/> }.into_any()
            }}
            <button type="button" class="remove" id=format!("remove-phase-{i}") on:click=remove>"Remove"</button>
        </div>
    }
    .into_any()
}

/// Adds a phase before the last, halfway from the one before it to the design; the first adds
/// the final phase too.
fn add_phase(s: &mut DesignSpec) {
    let nodes = s.cluster.nodes;
    let growth = s.growth.get_or_insert_with(|| Growth {
        policy: GrowthPolicy::default(),
        phases: vec![Phase {
            label: "Final".into(),
            date: None,
            nodes,
        }],
    });
    let at = growth.phases.len() - 1;
    let before = at.checked_sub(1).map_or(0, |b| growth.phases[b].nodes);
    growth.phases.insert(
        at,
        Phase {
            label: format!("Phase {}", at + 1),
            date: None,
            nodes: (before + (nodes - before.min(nodes)) / 2).max(1),
        },
    );
}

/// Removes phase `i`; a design left with one phase has none.
fn remove_phase(s: &mut DesignSpec, i: usize) {
    let nodes = s.cluster.nodes;
    if let Some(g) = s.growth.as_mut() {
        if i < g.phases.len() {
            g.phases.remove(i);
        }
        if let Some(last) = g.phases.last_mut() {
            last.nodes = nodes;
        }
        if g.phases.len() < 2 {
            s.growth = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first phase added brings the final one with it; each next goes before the final,
    /// halfway from the phase before; removing down to one phase removes the growth.
    #[test]
    fn phases_are_added_before_the_design_and_removed_down_to_none() {
        let mut s = crate::templates::blank_design();
        s.cluster.nodes = 128;
        add_phase(&mut s);
        let nodes = |s: &DesignSpec| {
            s.growth
                .as_ref()
                .map(|g| g.phases.iter().map(|p| p.nodes).collect::<Vec<_>>())
        };
        assert_eq!(nodes(&s), Some(vec![64, 128]));
        add_phase(&mut s);
        assert_eq!(nodes(&s), Some(vec![64, 96, 128]));
        assert!(s.validate().is_ok(), "{:?}", s.validate());
        remove_phase(&mut s, 2);
        assert_eq!(
            nodes(&s),
            Some(vec![64, 128]),
            "the last phase is the design"
        );
        remove_phase(&mut s, 0);
        assert_eq!(s.growth, None);
    }
}
