//! The rules for the names and texts a design carries, one rule per kind:
//!
//! - A **fabric name** is part of every device name the hand-off files give the fabric's
//!   switches and ports (`compute-leaf-01`, `compute-nic1`): switch host names, Slurm switch
//!   names, ibnetdiscover node descriptions, Kubernetes label values, file and zip entry names.
//!   So it is what all of them accept: an RFC 1123 host-name label in lower case, starting with
//!   a letter, short enough that `<name>-spine-0001` is still a label of at most 63 characters
//!   [RFC 1123 §2.1; slurm.schedmd.com/topology.conf.html; kubernetes.io "Labels and
//!   Selectors"].
//! - **Text** (a title, a workload's name, a BOM item key) is shown on pages and written into
//!   files as a value or a comment: one line, with no control characters (NUL included), no
//!   line or paragraph separators, which YAML 1.1 readers such as PyYAML take for line breaks
//!   [YAML 1.1 §5.4], and neither U+FFFE nor U+FFFF, which no YAML file may hold. Text made
//!   only of white space and invisible characters is empty.
//!
//! Designs saved before these rules keep opening: [`DesignSpec::from_stored_json`] maps what
//! they break ([`safe_fabric_name`], [`one_line`]) instead of refusing it.
//!
//! [`DesignSpec::from_stored_json`]: super::DesignSpec::from_stored_json

/// Longest fabric name: `<name>-spine-0001` stays within a 63-character label.
pub const MAX_FABRIC_NAME_CHARS: usize = 32;

/// The fabric-name rule as a regular expression, for the JSON Schema of the spec.
pub const FABRIC_NAME_PATTERN: &str = "^[a-z]([a-z0-9-]{0,30}[a-z0-9])?$";

/// Why `name` is not a fabric name, or `None` when it is one.
pub fn fabric_name_error(name: &str) -> Option<String> {
    label_error(name).map(|why| {
        format!(
            "{why}: it names the fabric's switches and ports in the hand-off files \
             (compute-leaf-01), which switches, schedulers and file systems read"
        )
    })
}

/// Longest tenant name: it names the tenant's VRF, which Cumulus Linux makes a Linux network
/// device, whose names hold at most 15 characters (IFNAMSIZ − 1) [linux include/uapi/linux/if.h].
pub const MAX_TENANT_NAME_CHARS: usize = 15;

/// Why `name` is not a tenant's name, or `None` when it is one. A tenant's name follows the
/// fabric-name rule, in at most [`MAX_TENANT_NAME_CHARS`]: it names the tenant's Kubernetes
/// namespace (an RFC 1123 label), Slurm partition, VRF and partition in the hand-off files.
pub fn tenant_name_error(name: &str) -> Option<String> {
    let why = match label_error(name) {
        Some(why) => why,
        None if name.len() > MAX_TENANT_NAME_CHARS => "must be at most 15 characters",
        None if is_reserved_for_a_tenant(name) => {
            "is taken by the switches, Slurm or Kubernetes (default, mgmt, management, names \
             that start with kube-, interface names such as lo, swp1 or eth0)"
        }
        None => return None,
    };
    Some(format!(
        "{why}: it names the tenant's Slurm partition, Kubernetes namespace, VRF (a network \
         device on the switches) and InfiniBand partition in the hand-off files"
    ))
}

/// Names that already mean something where a tenant's name is written: Slurm reads a partition
/// named `default` (in any case) as the defaults of the partitions after it [slurm.conf(5),
/// PartitionName]; Kubernetes keeps `default` and the names starting `kube-` for its own
/// namespaces [kubernetes.io, Namespaces]; `default` and `mgmt` are VRFs every Cumulus switch
/// has, and `default` is EOS's global table [NVIDIA Cumulus Linux, Virtual Routing and
/// Forwarding; Arista AVD, network_services]; `management` is UFM's default partition [NVIDIA UFM
/// User Manual, Partition Keys]; and a VRF is a network device, so it cannot take the name of
/// an interface.
fn is_reserved_for_a_tenant(name: &str) -> bool {
    const NAMES: [&str; 4] = ["default", "mgmt", "management", "lo"];
    const INTERFACES: [&str; 7] = ["swp", "eth", "bond", "vlan", "vxlan", "br", "lo"];
    let interface = INTERFACES.iter().any(|prefix| {
        name.strip_prefix(prefix)
            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
    });
    NAMES.contains(&name) || name.starts_with("kube-") || interface
}

/// Why `name` breaks the fabric-name rule (a lower-case label of at most 32 characters).
fn label_error(name: &str) -> Option<&'static str> {
    Some(if name.is_empty() {
        "must not be empty"
    } else if name.len() > MAX_FABRIC_NAME_CHARS {
        "must be at most 32 characters"
    } else if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        "must start with a lower-case letter"
    } else if name.ends_with('-') {
        "must not end with a hyphen"
    } else if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        "may hold only lower-case letters a-z, digits and hyphens"
    } else {
        return None;
    })
}

/// Why `text` is not one line of text, or `None` when it is.
pub fn text_error(text: &str) -> Option<&'static str> {
    text.chars().find(|c| breaks_a_line(*c)).map(|c| {
        if c == '\0' {
            "must not contain NUL characters"
        } else if matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            "must be one line: line breaks are not allowed"
        } else if matches!(c, '\u{FFFE}' | '\u{FFFF}') {
            "must not contain U+FFFE or U+FFFF, which no YAML file may hold"
        } else {
            "must not contain control characters"
        }
    })
}

/// Whether `text` holds nothing visible: only white space and invisible characters
/// (zero-width spaces, direction marks and overrides, byte-order marks).
pub fn is_blank(text: &str) -> bool {
    text.chars().all(invisible)
}

/// Control characters (C0, DEL, C1), the line and paragraph separators, and the two
/// noncharacters outside YAML's printable set, which make a YAML reader refuse the whole file,
/// comments included [YAML 1.2 §5.1].
fn breaks_a_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FFFE}' | '\u{FFFF}')
}

/// White space, and Unicode's default-ignorable code points, which render as nothing
/// [Unicode DerivedCoreProperties.txt, Default_Ignorable_Code_Point].
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFF8}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// `text` as one line: every control character and separator a space. What a stored text
/// written before the rule becomes, and what a comment in a hand-off file holds.
pub fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(breaks_a_line) {
        text.chars()
            .map(|c| if breaks_a_line(c) { ' ' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

/// A fabric name that keeps the rule, made from `name`: lower case, every run of other
/// characters one hyphen, `fabric-` in front of one that does not start with a letter, cut to
/// the longest allowed. What a fabric saved under an earlier rule is called; the caller makes
/// it unique.
pub fn safe_fabric_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len().min(MAX_FABRIC_NAME_CHARS));
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    if !out.starts_with(|c: char| c.is_ascii_lowercase()) {
        out.insert_str(0, if out.is_empty() { "fabric" } else { "fabric-" });
    }
    out.truncate(MAX_FABRIC_NAME_CHARS);
    while out.ends_with('-') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fabric_names_are_lower_case_host_name_labels() {
        for good in ["compute", "storage-2", "a", "front-end", "ib0"] {
            assert_eq!(fabric_name_error(good), None, "{good}");
        }
        for bad in [
            "",
            "Compute",
            "compute fabric",
            "2nd",
            "-x",
            "x-",
            "a\nSwitchName=evil",
            "../../etc",
            "x\"; filename=\"invoice.exe",
            "ünïcode",
            &"a".repeat(33),
        ] {
            assert!(fabric_name_error(bad).is_some(), "{bad:?}");
        }
        assert!(fabric_name_error("Compute")
            .unwrap()
            .contains("lower-case letter"));
    }

    #[test]
    fn a_tenant_takes_no_name_its_hand_off_files_already_use() {
        for good in ["team-a", "research", "swpx", "ethics", "defaults", "kube"] {
            assert_eq!(tenant_name_error(good), None, "{good}");
        }
        for taken in [
            "default",
            "mgmt",
            "management",
            "lo",
            "kube-system",
            "kube-node-lease",
            "kube-a",
            "swp1",
            "swp1s0",
            "eth0",
            "bond0",
            "vlan10",
            "vxlan48",
            "br0",
            "lo1",
        ] {
            let why = tenant_name_error(taken).unwrap_or_default();
            assert!(why.contains("is taken"), "{taken}: {why}");
        }
    }

    #[test]
    fn the_pattern_says_what_the_rule_checks() {
        // The schema's pattern and the rule agree on the boundaries.
        assert!(FABRIC_NAME_PATTERN.contains("{0,30}"));
        assert_eq!(MAX_FABRIC_NAME_CHARS, 32);
        assert_eq!(fabric_name_error(&"a".repeat(32)), None);
    }

    #[test]
    fn text_is_one_line_without_control_characters() {
        assert_eq!(text_error("70B training on 1,024 GPUs — rev. 2 «ü»"), None);
        assert!(text_error("a\rb").unwrap().contains("one line"));
        assert!(text_error("a\u{2028}b").unwrap().contains("one line"));
        assert!(text_error("a\u{85}b").unwrap().contains("one line"));
        assert!(text_error("a\0b").unwrap().contains("NUL"));
        assert!(text_error("a\u{1b}[31m").unwrap().contains("control"));
        assert!(text_error("Lab\u{FFFF}").unwrap().contains("YAML"));
        assert_eq!(one_line("Lab\u{FFFE}"), "Lab ");
    }

    #[test]
    fn text_of_only_invisible_characters_is_blank() {
        assert!(is_blank(" \u{200B}\u{202E}\u{FEFF}\t"));
        assert!(!is_blank("\u{200B}x"));
        assert!(!is_blank("日本"));
    }

    #[test]
    fn stored_names_are_mapped_to_names_that_keep_the_rule() {
        assert_eq!(safe_fabric_name("Compute Fabric"), "compute-fabric");
        assert_eq!(safe_fabric_name("a\nSwitchName=evil"), "a-switchname-evil");
        assert_eq!(safe_fabric_name("../x"), "x");
        assert_eq!(safe_fabric_name("2nd"), "fabric-2nd");
        assert_eq!(safe_fabric_name("日本"), "fabric");
        let long = safe_fabric_name(&"ab-".repeat(20));
        assert_eq!(fabric_name_error(&long), None, "{long}");
        for name in ["Compute Fabric", "2nd", "日本", "-", "x-"] {
            assert_eq!(fabric_name_error(&safe_fabric_name(name)), None, "{name}");
        }
        assert_eq!(one_line("a\r\nb\u{2028}c"), "a  b c");
    }
}
