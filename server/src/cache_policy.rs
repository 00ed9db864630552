//! Which responses a browser or a shared cache may keep. A response that carries an edit key
//! (in a cookie it sets, in its body, or in a confirmation form) is never stored anywhere; a
//! page that depends on the keys this browser holds is kept by this browser only; the browser
//! bundle is checked for a newer one on every load.

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;

/// Whether the response to `method` `path` may carry an edit key even without setting a cookie:
/// the edit link's confirmation page and the API's answer to a create.
fn carries_key(method: &Method, path: &str) -> bool {
    (path.starts_with("/d/") && path.ends_with("/claim"))
        || (method == Method::POST && path == "/api/designs")
}

/// Whether the page at `path` shows what this browser may do (its designs, its edit rights).
fn per_browser(path: &str) -> bool {
    path == "/designs"
        || (path.starts_with("/d/")
            && (path.ends_with("/edit")
                || path.ends_with("/duplicate")
                || path.ends_with("/search/open")
                || path.ends_with("/baselines")))
}

pub async fn cache_policy(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let policy = if headers.contains_key(header::SET_COOKIE) || carries_key(&method, &path) {
        Some("no-store")
    } else if per_browser(&path) {
        Some("private, no-cache")
    } else if path.starts_with("/pkg/") {
        // The bundle reads what the planner's page carries in a form only the same build reads
        // (`app::wire::Borsh`): a bundle kept from before an upgrade must not meet a newer page.
        // Its files keep their names from build to build, so the browser asks each time
        // whether they changed (304 when not).
        Some("no-cache")
    } else {
        None
    };
    if let Some(policy) = policy {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    }
    response
}
