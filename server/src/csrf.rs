//! Requests that change state must come from the planner's own pages. A browser names the page
//! a request comes from (`Sec-Fetch-Site`, `Origin`), so a form or script on another site that
//! posts here is refused with 403 before any handler runs, whatever cookies it carries. JSON
//! endpoints take only JSON: a cross-site form cannot send `application/json` without a
//! preflight, which this server never grants. Clients that are not browsers (scripts with the
//! edit key) send neither header and are unaffected.

use crate::cli::PublicUrl;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Where the planner is served: the public URL when configured, else the request's Host.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub public_url: Option<PublicUrl>,
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

impl Origin {
    /// Whether `origin` (an `Origin` header) is this server.
    fn is_ours(&self, origin: &str, headers: &HeaderMap) -> bool {
        match &self.public_url {
            Some(url) => origin.eq_ignore_ascii_case(url.as_str()),
            None => {
                let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
                let authority = origin
                    .strip_prefix("https://")
                    .or_else(|| origin.strip_prefix("http://"));
                matches!((host, authority), (Some(h), Some(a)) if h.eq_ignore_ascii_case(a))
            }
        }
    }

    /// Why a state-changing request from a browser is not from our pages, if it is not.
    fn cross_site(&self, headers: &HeaderMap) -> Option<&'static str> {
        let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
        if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site")) {
            if !matches!(site, "same-origin" | "none") {
                return Some("this request came from another site's page");
            }
        }
        match text(header::ORIGIN) {
            Some(origin) if !self.is_ours(origin, headers) => {
                Some("this request came from another origin")
            }
            _ => None,
        }
    }
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

/// Refuses cross-site requests that would change state, and JSON endpoints sent anything but
/// JSON (or, for the planner's own server functions, a URL-encoded form).
pub async fn same_origin(State(origin): State<Origin>, request: Request, next: Next) -> Response {
    let method = request.method();
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return next.run(request).await;
    }
    if let Some(why) = origin.cross_site(request.headers()) {
        tracing::warn!(
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
    if reads_json(path) {
        let kind = content_type(request.headers()).to_ascii_lowercase();
        let form = path.starts_with("/fn/") && kind == "application/x-www-form-urlencoded";
        if kind != "application/json" && !form {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as JSON, with Content-Type: application/json",
            );
        }
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
            map.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn our_own_pages_pass_and_other_sites_do_not() {
        let o = Origin::default();
        let ours = headers(&[("host", "planner:3000"), ("origin", "http://planner:3000")]);
        assert_eq!(o.cross_site(&ours), None);
        let theirs = headers(&[("host", "planner:3000"), ("origin", "https://evil.example")]);
        assert!(o.cross_site(&theirs).is_some());
        let null = headers(&[("host", "planner:3000"), ("origin", "null")]);
        assert!(o.cross_site(&null).is_some());
        let fetch = headers(&[("host", "planner:3000"), ("sec-fetch-site", "cross-site")]);
        assert!(o.cross_site(&fetch).is_some());
        let sibling = headers(&[("sec-fetch-site", "same-site")]);
        assert!(o.cross_site(&sibling).is_some());
        assert_eq!(o.cross_site(&headers(&[])), None, "a script, not a browser");
    }

    #[test]
    fn behind_a_proxy_the_public_url_is_the_origin() {
        let o = Origin {
            public_url: Some(PublicUrl::parse("https://planner.example.com").unwrap()),
        };
        let ours = headers(&[
            ("host", "10.0.0.5:3000"),
            ("origin", "https://planner.example.com"),
        ]);
        assert_eq!(o.cross_site(&ours), None);
        let plain = headers(&[
            ("host", "planner.example.com"),
            ("origin", "http://planner.example.com"),
        ]);
        assert!(o.cross_site(&plain).is_some());
    }
}
