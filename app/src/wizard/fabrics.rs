use super::lens::{self, whole};
use super::options;
use crate::editor::Editor;
use crate::fields::{Kind, NumInput, SelectInput, TextInput};
use crate::templates::{apply_hybrid, fabric, unused_fabric_name};
use engine::GigabitsPerSecond;
use engine::{Metres, Role, Technology};
use leptos::prelude::*;

/// Step 3: the fabrics, and which workloads each carries.
#[component]
pub fn FabricsStep() -> AnyView {
    let editor = Editor::get();
    let count = Memo::new(move |_| editor.spec.with(|s| s.fabrics.len()));
    let add = move |_| {
        editor.update(|s| {
            let name = unused_fabric_name(s, "fabric");
            s.fabrics
                .push(fabric(Role::Storage, Technology::Roce100, &name));
        })
    };
    let hybrid = move |_| {
        editor.update(apply_hybrid);
        editor.clear_unparsed_under("fabrics[");
    };
    view! {
        <p class="lede">
            "Each fabric is sized for the workloads mapped to it. The hybrid layout puts training on InfiniBand "
            "and inference and storage on 100GbE: a layout that works well for many on-premises clusters."
        </p>
        <div class="actions">
            <button type="button" class="secondary" id="hybrid-layout" on:click=hybrid>"Hybrid layout: InfiniBand training, 100GbE inference and storage"</button>
        </div>
        <div class="cards">{move || (0..count.get()).map(|i| view! { <FabricCard i/> }).collect_view()}</div>
        <div class="actions">
            <button type="button" class="secondary" id="add-fabric" on:click=add>"+ Fabric"</button>
        </div>
    }
    .into_any()
}

#[component]
fn FabricCard(i: usize) -> AnyView {
    let editor = Editor::get();
    let at = format!("fabrics[{i}]");
    let name = Signal::derive(move || {
        editor
            .spec
            .with(|s| s.fabrics.get(i).map(|f| f.name.clone()).unwrap_or_default())
    });
    let set_name = Callback::new(move |v: String| editor.update(|s| s.rename_fabric(i, v)));
    let (role, set_role) = lens::fabric_choice(
        i,
        |f| options::role_key(f.role).to_string(),
        |f, key| {
            if let Some(r) = options::role_from(key) {
                f.role = r;
            }
        },
    );
    let (technology, set_technology) = lens::fabric_choice(
        i,
        |f| f.technology.key().to_string(),
        |f, key| {
            if let Some(t) = Technology::from_key(key) {
                f.technology = t;
                // A switch of the other family cannot carry it: fall back to the default.
                if f.switch
                    .as_deref()
                    .is_some_and(|s| !options::switches_for(t).iter().any(|(k, _)| k == s))
                {
                    f.switch = None;
                }
                f.port_gbps = None;
            }
        },
    );
    let switch_options = Signal::derive(move || {
        editor.spec.with(|s| {
            s.fabrics
                .get(i)
                .map(|f| options::switches_for(f.technology))
                .unwrap_or_default()
        })
    });
    let (switch, set_switch) = lens::fabric_choice(
        i,
        |f| f.switch.clone().unwrap_or_default(),
        |f, key| f.switch = (!key.is_empty()).then(|| key.to_string()),
    );
    let (topology, set_topology) = lens::fabric_choice(
        i,
        |f| options::topology_key(f.topology).to_string(),
        |f, key| {
            if let Some(t) = options::topology_from(key) {
                f.topology = t;
            }
        },
    );
    let (leaf, set_leaf) = lens::fabric(
        i,
        |f| Some(f.oversubscription.leaf),
        |f, v| f.oversubscription.leaf = v.unwrap_or(1.0),
    );
    let (spine, set_spine) = lens::fabric(
        i,
        |f| Some(f.oversubscription.spine),
        |f, v| f.oversubscription.spine = v.unwrap_or(1.0),
    );
    let (attached, set_attached) = lens::fabric(
        i,
        |f| f.attached_nodes.map(f64::from),
        |f, v| f.attached_nodes = v.map(whole),
    );
    let (ports, set_ports) = lens::fabric(
        i,
        |f| f.ports_per_node.map(f64::from),
        |f, v| f.ports_per_node = v.map(whole),
    );
    let (extra, set_extra) = lens::fabric(
        i,
        |f| Some(f64::from(f.extra_endpoints)),
        |f, v| f.extra_endpoints = v.map(whole).unwrap_or(0),
    );
    let (speed, set_speed) = lens::fabric(
        i,
        |f| f.port_gbps.map(GigabitsPerSecond::gbps),
        |f, v| f.port_gbps = v.map(GigabitsPerSecond::new),
    );
    let (node_leaf, set_node_leaf) = lens::fabric(
        i,
        |f| Some(f.cable_runs.node_leaf_m.metres()),
        |f, v| f.cable_runs.node_leaf_m = Metres::new(v.unwrap_or(0.0)),
    );
    let (leaf_spine, set_leaf_spine) = lens::fabric(
        i,
        |f| Some(f.cable_runs.leaf_spine_m.metres()),
        |f, v| f.cable_runs.leaf_spine_m = Metres::new(v.unwrap_or(0.0)),
    );
    let (spine_core, set_spine_core) = lens::fabric(
        i,
        |f| Some(f.cable_runs.spine_core_m.metres()),
        |f, v| f.cable_runs.spine_core_m = Metres::new(v.unwrap_or(0.0)),
    );
    let remove = move |_| {
        editor.update(|s| {
            if i < s.fabrics.len() {
                s.fabrics.remove(i);
            }
        });
        editor.clear_unparsed_under("fabrics[");
    };
    let fabric_error = editor.error(at.clone());
    view! {
        <fieldset class="card fabric" id=format!("fabric-{i}")>
            <legend>{move || format!("Fabric {}: {}", i + 1, name.get())}</legend>
            <p class="field-error" role="alert">{move || fabric_error.get()}</p>
            <div class="field-row">
                <TextInput path=format!("{at}.name") label="Name" value=name set=set_name/>
                <SelectInput path=format!("{at}.role") label="Role" options=options::roles() value=role set=set_role/>
                <SelectInput path=format!("{at}.technology") label="Technology" options=options::technologies() value=technology set=set_technology/>
            </div>
            <div class="field-row">
                <SelectInput path=format!("{at}.switch") label="Switch" options=switch_options value=switch set=set_switch/>
                <SelectInput path=format!("{at}.topology") label="Topology" options=options::topologies() value=topology set=set_topology/>
                <NumInput path=format!("{at}.port_gbps") label="Port speed" unit="Gb/s" help="empty: the technology's" optional=true value=speed set=set_speed/>
            </div>
            <div class="field-row">
                <NumInput path=format!("{at}.oversubscription.leaf") label="Leaf oversubscription" unit=":1" value=leaf set=set_leaf/>
                <NumInput path=format!("{at}.oversubscription.spine") label="Spine oversubscription" unit=":1" help="3-tier only" value=spine set=set_spine/>
            </div>
            <div class="field-row">
                <NumInput path=format!("{at}.attached_nodes") label="Nodes attached" help="empty: all" kind=Kind::Count optional=true value=attached set=set_attached/>
                <NumInput path=format!("{at}.ports_per_node") label="Ports per node" help="empty: NICs per node (compute), else 1" kind=Kind::Count optional=true value=ports set=set_ports/>
                <NumInput path=format!("{at}.extra_endpoints") label="Other endpoints" help="storage servers, UFM, gateways" kind=Kind::CountOrZero value=extra set=set_extra/>
            </div>
            <div class="field-row">
                <NumInput path=format!("{at}.cable_runs.node_leaf_m") label="Node to leaf" unit="m" value=node_leaf set=set_node_leaf/>
                <NumInput path=format!("{at}.cable_runs.leaf_spine_m") label="Leaf to spine" unit="m" value=leaf_spine set=set_leaf_spine/>
                <NumInput path=format!("{at}.cable_runs.spine_core_m") label="Spine to core" unit="m" value=spine_core set=set_spine_core/>
            </div>
            <button type="button" class="remove" id=format!("remove-fabric-{i}") on:click=remove>"Remove fabric"</button>
        </fieldset>
    }
    .into_any()
}
