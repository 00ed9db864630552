//! The as-built check: what a built fabric reports about itself (`ibnetdiscover` on InfiniBand,
//! LLDP neighbour tables on Ethernet), read into one list of observed links and compared with
//! the cabling plan, cable by cable.
//!
//! The parsers are strict and kind in the way the nccl-tests one is: they take what an operator
//! pastes, and refuse truncated, foreign, binary or oversized input with the line at fault.

pub mod ibnetdiscover;
pub mod lldp;
mod matcher;
mod result;

pub use matcher::{check, check_fabrics};
pub use result::{AsBuiltCheck, CableCheck, Miscabled, Status, Summary, MAX_LISTED};

/// Larger input is refused: `ibnetdiscover` of a 2,048-node, 8-rail fabric is about 6 MB.
pub const MAX_INPUT_BYTES: usize = 64 << 20;
/// No line of these tools' output is near this long.
pub const MAX_LINE_CHARS: usize = 4_000;
/// What the as-built readers accept.
pub(crate) const LIMITS: crate::pasted::Limits = crate::pasted::Limits {
    max_bytes: MAX_INPUT_BYTES,
    max_line_chars: MAX_LINE_CHARS,
};
/// More links than the largest fabric the engine sizes.
pub const MAX_LINKS: usize = 1 << 20;

/// `links` with the hosts' ports named as the cabling sheet names them: a port the host names
/// by its adapter (`mlx5_3`, `ibp64s0`, `enp64s0np0`, as the node type's `adapters` list them)
/// becomes the sheet's port of its rail on `fabric` (`compute-nic2`). Other ports are left as
/// they are.
pub fn on_sheet(links: &mut [ObservedLink], fabric: &str, adapters: &[crate::catalog::Adapter]) {
    if adapters.is_empty() {
        return;
    }
    let named = |port: &mut String| {
        if let Some(rail) = crate::catalog::rail_of(adapters, port) {
            *port = format!("{fabric}-nic{rail}");
        }
    };
    for link in links {
        named(&mut link.port);
        named(&mut link.peer_port);
    }
}

pub use crate::error::ParseError;

pub(crate) use crate::error::parse_error as error;
pub(crate) use crate::fast_hash::{FastMap, FastSet};
pub use crate::ports::{
    cumulus_port, eos_port, ib_lane_gbps, ib_rate, ib_speed_token, port_key, ObservedLink,
};
