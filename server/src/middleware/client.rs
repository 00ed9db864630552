//! Who a request comes from: the peer's address, or behind a trusted reverse proxy the client
//! the proxy names (`Forwarded: for=`, else the last untrusted `X-Forwarded-For` hop). Limits
//! are kept per client; an IPv6 client is its /64, since one host is given a whole /64.

use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// The client a request is counted against, as a request extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

/// The proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Arc<Vec<IpNet>>);

impl TrustedProxies {
    pub fn new(networks: Vec<IpNet>) -> TrustedProxies {
        TrustedProxies(Arc::new(networks))
    }

    pub(crate) fn trusts(&self, address: IpAddr) -> bool {
        let address = canonical(address);
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The client of a request that came from `peer` with `headers`.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> Client {
        if !self.trusts(peer) {
            return Client(bucket(peer));
        }
        // The hops the proxies appended, nearest last: the client is the last one that is not
        // itself a trusted proxy (anything before it was written by the client and proves nothing).
        let hops = forwarded_for(headers);
        let client = hops
            .iter()
            .rev()
            .copied()
            .find(|hop| !self.trusts(*hop))
            .or_else(|| hops.first().copied())
            .unwrap_or(peer);
        Client(bucket(client))
    }
}

/// An IPv4-mapped IPv6 address as the IPv4 address it is.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// The address a limit is kept for: IPv4 as it is, IPv6 by its /64.
pub(crate) fn bucket(address: IpAddr) -> IpAddr {
    match canonical(address) {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Addresses from `Forwarded` (RFC 7239) if present, else from `X-Forwarded-For`, in order.
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let values = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(|v| v.trim().to_string())
            .collect()
    };
    let forwarded: Vec<IpAddr> = values("forwarded")
        .iter()
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (name, value) = pair.trim().split_once('=')?;
                name.eq_ignore_ascii_case("for").then(|| node(value))?
            })
        })
        .collect();
    if !forwarded.is_empty() {
        return forwarded;
    }
    values("x-forwarded-for")
        .iter()
        .filter_map(|v| node(v))
        .collect()
}

/// An address as proxies write it: `192.0.2.1`, `"[2001:db8::1]:443"`, `192.0.2.1:80`.
fn node(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(address) = text.parse() {
        return Some(address);
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    text.rsplit_once(':')?.0.parse().ok()
}

/// Puts the request's [`Client`] in its extensions for the limits to read.
pub async fn identify(
    State(proxies): State<TrustedProxies>,
    mut request: Request,
    next: Next,
) -> Response {
    // Without connection info (a router driven in process) every request is one client.
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let client = proxies.client(peer, request.headers());
    request.extensions_mut().insert(client);
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(list.iter().map(|n| n.parse().unwrap()).collect())
    }

    #[test]
    fn forwarded_headers_from_an_untrusted_peer_are_ignored() {
        let h = headers(&[("x-forwarded-for", "203.0.113.9")]);
        let peer: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(proxies(&["10.0.0.0/8"]).client(peer, &h), Client(peer));
        assert_eq!(TrustedProxies::default().client(peer, &h), Client(peer));
    }

    #[test]
    fn behind_a_trusted_proxy_the_last_untrusted_hop_is_the_client() {
        let h = headers(&[("x-forwarded-for", "1.1.1.1, 203.0.113.9, 10.0.0.2")]);
        let client = proxies(&["10.0.0.0/8"]).client("10.0.0.1".parse().unwrap(), &h);
        assert_eq!(client, Client("203.0.113.9".parse().unwrap()));
    }

    #[test]
    fn the_standard_forwarded_header_wins_and_may_quote_ipv6_with_a_port() {
        let h = headers(&[
            ("forwarded", "for=\"[2001:db8:1:2:3::9]:4711\";proto=https"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        let client = proxies(&["::1/128"]).client("::1".parse().unwrap(), &h);
        assert_eq!(client, Client("2001:db8:1:2::".parse().unwrap()));
    }

    #[test]
    fn ipv6_clients_are_limited_per_slash_64_and_mapped_ipv4_as_ipv4() {
        let none = HeaderMap::new();
        let a = TrustedProxies::default().client("2001:db8:0:1::1".parse().unwrap(), &none);
        let b = TrustedProxies::default().client("2001:db8:0:1:ffff::2".parse().unwrap(), &none);
        assert_eq!(a, b);
        let mapped = TrustedProxies::default().client("::ffff:192.0.2.1".parse().unwrap(), &none);
        assert_eq!(mapped, Client("192.0.2.1".parse().unwrap()));
    }
}
