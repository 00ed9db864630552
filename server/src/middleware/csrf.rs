//! Requests that change state must come from the planner's own pages. A browser names the page
//! a request comes from (`Sec-Fetch-Site`, `Origin`), so a form or script on another site that
//! posts here is refused with 403 before any handler runs, whatever cookies it carries. JSON
//! endpoints take only JSON: a cross-site form cannot send `application/json` without a
//! preflight, which this server never grants. Clients that are not browsers (scripts with the
//! edit key) send neither header and are unaffected.

use crate::public_url::PublicUrl;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Where the planner is served: the public URL when configured, else the request's Host over
/// plain HTTP (the server itself speaks no TLS); and the host names requests may name.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub public_url: Option<PublicUrl>,
    pub allowed_hosts: AllowedHosts,
}

/// The names a request's `Host` (or HTTP/2 `:authority`) may give: `host` alone allows any
/// port of it, `host:port` that port only. Compared without regard to case.
#[derive(Debug, Clone, Default)]
pub struct AllowedHosts(Arc<Vec<String>>);

/// Loopback names, allowed when neither the public URL nor `--allowed-host` names the host.
const LOOPBACK: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

impl AllowedHosts {
    /// The hosts of `--allowed-host`, else the public URL's authority, else loopback.
    pub fn new(configured: &[String], public_url: Option<&PublicUrl>) -> AllowedHosts {
        let mut hosts: Vec<String> = configured
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect();
        if hosts.is_empty() {
            match public_url {
                Some(url) => hosts.push(authority(url.as_str()).to_string()),
                None => hosts.extend(LOOPBACK.map(String::from)),
            }
        }
        AllowedHosts(Arc::new(hosts))
    }

    /// Whether `host` (`name` or `name:port`) is allowed.
    fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let name = match host.rsplit_once(':') {
            // `[::1]:3000` and `planner:3000`, not the colons inside `[::1]`.
            Some((name, port)) if !port.contains(']') => name,
            _ => host.as_str(),
        };
        self.0.iter().any(|a| *a == host || *a == name)
    }

    fn describe(&self) -> String {
        self.0.join(", ")
    }
}

/// The scheme-less part of a URL: `planner.example.com` of `https://planner.example.com`.
fn authority(url: &str) -> &str {
    url.split_once("://").map_or(url, |(_, rest)| rest)
}

/// Why a request was refused.
fn refuse(status: StatusCode, error: &str, details: &str) -> Response {
    let body = serde_json::json!({ "error": error, "details": details });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// The host a request names: HTTP/2's `:authority`, else the `Host` header.
fn requested_host(request: &Request) -> Option<&str> {
    request
        .uri()
        .authority()
        .map(|a| a.as_str())
        .or_else(|| request.headers().get(header::HOST)?.to_str().ok())
}

impl Origin {
    /// Whether `origin` (an `Origin` header) is this server: the public URL, or without one
    /// `http://` and the request's host.
    fn is_ours(&self, origin: &str, host: Option<&str>) -> bool {
        match &self.public_url {
            Some(url) => origin.eq_ignore_ascii_case(url.as_str()),
            None => {
                let authority = origin.strip_prefix("http://");
                matches!((host, authority), (Some(h), Some(a)) if h.eq_ignore_ascii_case(a))
            }
        }
    }

    /// Why a state-changing request from a browser is not from our pages, if it is not.
    fn cross_site(&self, headers: &HeaderMap, host: Option<&str>) -> Option<&'static str> {
        let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
        if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
            if !matches!(site, "same-origin" | "none") {
                return Some("this request came from another site's page");
            }
        }
        let mut origins = headers.get_all(header::ORIGIN).iter();
        match (origins.next(), origins.next()) {
            (Some(_), Some(_)) => Some("this request names more than one origin"),
            (Some(origin), None) => match origin.to_str() {
                Ok(origin) if self.is_ours(origin, host) => None,
                _ => Some("this request came from another origin"),
            },
            (None, _) => None,
        }
    }
}

/// Whether the request comes from a browser that reads the answer as a page.
fn wants_a_page(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"))
}

/// Whether the endpoint at `path` reads a JSON body, and so must be sent JSON.
fn reads_json(path: &str) -> bool {
    path.starts_with("/api/") || path.starts_with("/fn/")
}

fn content_type(headers: &HeaderMap) -> &str {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map_or("", str::trim)
}

/// Refuses requests that name a host the server does not answer to (421), cross-site requests
/// that would change state (403), and JSON endpoints sent anything but JSON (415).
pub async fn same_origin(State(origin): State<Origin>, request: Request, next: Next) -> Response {
    let host = requested_host(&request);
    if let Some(host) = host {
        if !origin.allowed_hosts.allows(host) {
            let why = format!(
                "this server answers to {}; to reach it under another name, start it with \
                 --allowed-host or --public-url",
                origin.allowed_hosts.describe()
            );
            if wants_a_page(request.headers()) {
                return crate::resources::respond::html(&app::pages::document::message(
                    421,
                    "Not this address",
                    format!("The planner is not served at this address: {why}."),
                ));
            }
            return refuse(StatusCode::MISDIRECTED_REQUEST, "misdirected_request", &why);
        }
    }
    let method = request.method();
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    if let Some(why) = origin.cross_site(request.headers(), host) {
        // At debug: any site can make its visitors' browsers send these, as many as it likes,
        // before any limit applies; a warning each would let it fill the log.
        tracing::debug!(
            path = request.uri().path(),
            why,
            "cross-site request refused"
        );
        return refuse(
            StatusCode::FORBIDDEN,
            "forbidden",
            &format!("{why}: changes are accepted only from the planner's own pages"),
        );
    }
    let path = request.uri().path();
    if reads_json(path) && !content_type(request.headers()).eq_ignore_ascii_case("application/json")
    {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "send the body as JSON, with Content-Type: application/json",
        );
    }
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

    #[test]
    fn our_own_pages_pass_and_other_sites_do_not() {
        let o = Origin::default();
        let host = Some("planner:3000");
        let ours = headers(&[("origin", "http://planner:3000")]);
        assert_eq!(o.cross_site(&ours, host), None);
        let theirs = headers(&[("origin", "https://evil.example")]);
        assert!(o.cross_site(&theirs, host).is_some());
        let null = headers(&[("origin", "null")]);
        assert!(o.cross_site(&null, host).is_some());
        let fetch = headers(&[("sec-fetch-site", "cross-site")]);
        assert!(o.cross_site(&fetch, host).is_some());
        let sibling = headers(&[("sec-fetch-site", "same-site")]);
        assert!(o.cross_site(&sibling, host).is_some());
        assert_eq!(
            o.cross_site(&headers(&[]), host),
            None,
            "a script, not a browser"
        );
    }

    #[test]
    fn without_a_public_url_the_scheme_must_be_plain_http_and_one_origin_only() {
        let o = Origin::default();
        let host = Some("planner:3000");
        let tls = headers(&[("origin", "https://planner:3000")]);
        assert!(o.cross_site(&tls, host).is_some());
        let two = headers(&[
            ("origin", "http://planner:3000"),
            ("origin", "https://evil.example"),
        ]);
        assert_eq!(
            o.cross_site(&two, host),
            Some("this request names more than one origin")
        );
    }

    #[test]
    fn behind_a_proxy_the_public_url_is_the_origin() {
        let o = Origin {
            public_url: Some(PublicUrl::parse("https://planner.example.com").unwrap()),
            ..Origin::default()
        };
        let ours = headers(&[("origin", "https://planner.example.com")]);
        assert_eq!(o.cross_site(&ours, Some("10.0.0.5:3000")), None);
        let plain = headers(&[("origin", "http://planner.example.com")]);
        assert!(o.cross_site(&plain, Some("planner.example.com")).is_some());
    }

    #[test]
    fn only_the_allowed_hosts_are_answered() {
        let loopback = AllowedHosts::new(&[], None);
        for host in [
            "localhost:3000",
            "127.0.0.1:41234",
            "[::1]:3000",
            "LOCALHOST",
        ] {
            assert!(loopback.allows(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:3000",
            "127.0.0.2:3000",
            "[::2]",
        ] {
            assert!(!loopback.allows(host), "{host}");
        }
        let url = PublicUrl::parse("https://planner.example.com").unwrap();
        let public = AllowedHosts::new(&[], Some(&url));
        assert!(public.allows("planner.example.com"));
        assert!(public.allows("Planner.Example.com:443"));
        assert!(!public.allows("localhost:3000"));
        let configured = AllowedHosts::new(&["planner:8080".into(), "10.0.0.5".into()], Some(&url));
        assert!(configured.allows("planner:8080") && configured.allows("10.0.0.5:3000"));
        assert!(!configured.allows("planner:8081") && !configured.allows("planner.example.com"));
    }
}
