//! The README of the bundle: what each file is, which tool reads it, how names map to the
//! cabling sheet.

use super::text::comment;
use crate::spec::DesignSpec;

fn describe(file: &str) -> &'static str {
    let ext = file.rsplit('.').next().unwrap_or("");
    match (file.split('/').next().unwrap_or(""), ext) {
        ("cvt", _) if file.contains("hca-mapping") => "NVIDIA UFM Cable Validation Tool hca_mapping file: the RDMA device of each host port index of the P2P file, as the node type numbers its compute adapters (a DGX H100's are mlx5_0, 3, 4, 5, 6, 9, 10 and 11). Give it to CVT with the P2P file. https://docs.nvidia.com/networking/display/cablevalidationtool150/Optional+Files",
        ("cvt", _) => "NVIDIA UFM Cable Validation Tool point-to-point file (A-/Z- node and port columns, found by header name). CVT reads it as Excel: open it and save it as .xlsx. InfiniBand host port N is mlx5_{N-1} unless the bundle's CVT hca_mapping file says otherwise. https://docs.nvidia.com/networking/display/cablevalidationtool160/P2P+File",
        ("infiniband", _) => "The planned InfiniBand fabric in ibnetdiscover's topology format, which ibsim reads as its net file. Channel adapters are described \"<host> <adapter>\": the RDMA device where the node type names its adapters (a DGX: \"node-001 mlx5_0\"), else the cabling sheet's port. GUIDs are made up. man ibnetdiscover(8); https://github.com/linux-rdma/ibsim",
        ("avd", _) if file.ends_with("-inventory.yml") => "Ansible inventory for Arista AVD: the fabric group and one group per node type (type: spine, l3leaf, super_spine). https://avd.arista.com",
        ("avd", _) => "Arista AVD eos_designs fabric variables: L3 leaf-spine with eBGP, spines and one node group per leaf, uplink interfaces as cabled; for RoCE the lossless QoS profile (DSCP trust, PFC on priority 3 with watchdog, ECN 150-1,500 KB) on every RoCE-carrying port: the fabric links and each leaf's host-facing ports (its structured_config). With isolated tenants: an EVPN overlay (eBGP, every leaf a VTEP) and, under network_services, one tenant each with its VRF (its L3 VNI) and every GPU port of its nodes routed in it as a /31 (pure EVPN type-5). https://avd.arista.com",
        ("graphviz", _) if file.ends_with("-summary.dot") => "Graphviz DOT of the fabric by groups, for a reader of a fabric too large to draw cable by cable: a node per scalable unit (or leaf), per spine group and for the cores, with what each holds, and an edge per pair with its number of links (dot -Tsvg). https://graphviz.org/doc/info/lang.html",
        ("graphviz", _) => "Graphviz DOT of the fabric: one node per device, one edge per cable with its label (dot -Tsvg). Ethernet switch ports and os as the switches' operating system names them (Cumulus swpN, EOS EthernetN). https://graphviz.org/doc/info/lang.html",
        ("nvue", _) => "NVIDIA Cumulus Linux configuration of each Spectrum switch of the fabric, one file per switch as NVUE saves it (nv config replace <file>, then nv config apply): hostname, loopback, every cabled port with its peer and a 9,216 B MTU, split cages broken out, BGP unnumbered on every fabric link (each leaf its own AS); for RoCE, qos roce lossless (PFC on priority 3, ECN 150-1,500 KB, CNPs strict) with the headroom of the switch's longest cable, and the PFC watchdog on every RoCE port, host-facing ones first. With isolated tenants: EVPN on every switch and fabric link, each leaf a VXLAN tunnel end on its loopback, each tenant's VRF (its L3 VNI, routes exported to EVPN) on the leaves serving its nodes and each of its GPU ports a /31 in it (pure EVPN type-5). https://docs.nvidia.com/networking-ethernet-software/cumulus-linux/",
        ("netbox", "yaml") => "NetBox device types (devicetype-library YAML, one document each, with each type's true height): import after the manufacturers and device roles. https://github.com/netbox-community/devicetype-library",
        ("netbox", _) => "NetBox CSV bulk import, each file on its own import page, in this order: sites, manufacturers, device roles, then the device types (YAML), racks, devices, interfaces and cables; each file names objects of the ones before it. Devices stand in their racks and cables have their routed lengths where the design's floor places every fabric. https://netboxlabs.com/docs/netbox/",
        ("slurm", _) if file.contains("partitions") => "Slurm partitions, one per tenant over the nodes the planner gave it (PartitionName=<tenant> Nodes=...): Include it from slurm.conf, then restrict each partition to its tenant's accounts (AllowAccounts). https://slurm.schedmd.com/slurm.conf.html#SECTION_PARTITION-CONFIGURATION",
        ("ufm", "json") => "NVIDIA UFM partition keys, one per isolated tenant: each object is the body of a POST /ufmRest/resources/pkeys/add request (pkey, partition_name, index0, ip_over_ib). A shared tenant stays in the default partition 0x7fff. https://docs.nvidia.com/networking/display/ufmenterpriserestapilatest/pkey+guids+rest+api",
        ("ufm", _) => "The members of each tenant's partition key, host port by host port (pkey, tenant, host, RDMA device or port, full membership): once installed, read each port's GUID (ibstat) and add it to the key (POST /ufmRest/resources/pkeys with guids, pkey and membership). https://docs.nvidia.com/networking/display/ufmenterpriserestapilatest/pkey+guids+rest+api",
        ("kubernetes", _) if file.contains("tenants") => "A namespace per tenant and the label fabric-planner/tenant=<tenant> on each of its nodes, one partial Node per node (kubectl apply --server-side -f); give the namespace's pods a nodeSelector on the label, or enforce it with an admission policy. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/",
        ("slurm", _) if file.contains("block") => "Slurm topology.conf for the block plugin (TopologyPlugin=topology/block, Slurm 23.11 or later): one block per scalable unit. Rename to topology.conf. https://slurm.schedmd.com/topology.conf.html",
        ("slurm", _) => "Slurm topology.conf for the tree plugin (TopologyPlugin=topology/tree). https://slurm.schedmd.com/topology.conf.html",
        ("kubernetes", _) if file.contains("kueue") => "Kueue Topology (kueue.x-k8s.io/v1beta2) over the node labels, coarse to fine, and the ResourceFlavor that selects the fabric's nodes (label fabric-planner/fabric) and names the Topology; a ClusterQueue lists the flavor. https://kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling/",
        ("kubernetes", _) if file.contains("0x") => "The same node labels in NVIDIA Topograph 0.x's scheme (network.topology.nvidia.com/leaf, spine, core), for clusters that run Topograph before 1.0. https://github.com/NVIDIA/topograph",
        ("kubernetes", _) => "Node topology labels as NVIDIA Topograph 1.x writes them (fabric.topograph.run/tier-0 for the switch a node hangs off, tier-1 and tier-2 above it) and fabric-planner/fabric, one partial Node per node: kubectl apply --server-side -f. https://docs.nvidia.com/topograph/",
        _ => "",
    }
}

/// The fabric of a file written once per switch, `nvue/<switch>.yaml`: the switch name before
/// its tier.
fn per_switch_fabric(file: &str) -> Option<&str> {
    let switch = file.strip_prefix("nvue/")?.strip_suffix(".yaml")?;
    ["-leaf-", "-spine-", "-core-"]
        .iter()
        .filter_map(|tier| switch.rfind(tier))
        .max()
        .map(|at| &switch[..at])
}

/// The bundle's README: what each of `files` is for, and why the fabrics `skipped` have none;
/// the labels have `label_digits` digits, as on the sheet.
pub fn readme(
    spec: &DesignSpec,
    files: &[String],
    skipped: &[String],
    label_digits: usize,
) -> String {
    let mut first_label = String::new();
    super::push_label(&mut first_label, 1, label_digits);
    let mut out = format!(
        "Hand-off bundle: {}\n\n\
         Every file is generated from the same design revision as the cabling sheet. Device names\n\
         are the sheet's; switch port pN is port N of the switch (InfiniBand port N, Cumulus swpN or\n\
         swpCsS for lane S of split cage C, EOS EthernetN or EthernetC/L); cables carry the sheet's\n\
         labels (C and the cable's number on the sheet, zero-padded: {first_label} onwards).\n\nFiles:\n",
        comment(&spec.title)
    );
    let mut i = 0;
    while i < files.len() {
        let name = &files[i];
        // A fabric's files of one per switch are listed once.
        match per_switch_fabric(name) {
            Some(fabric) => {
                let prefix = format!("nvue/{fabric}-");
                let n = files[i..]
                    .iter()
                    .take_while(|f| f.starts_with(&prefix))
                    .count();
                let files = if n == 1 { "file" } else { "files" };
                out.push_str(&format!(
                    "\nnvue/{fabric}-*.yaml ({n} {files}, one per switch of fabric {fabric})\n    {}\n",
                    describe(name)
                ));
                i += n;
            }
            None => {
                out.push_str(&format!("\n{name}\n    {}\n", describe(name)));
                i += 1;
            }
        }
    }
    if !skipped.is_empty() {
        out.push_str("\nFabrics without files (their switches cannot take their cables):\n");
        for s in skipped {
            out.push_str(&format!("    {s}\n"));
        }
    }
    out
}
