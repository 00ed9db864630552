//! Behind a TLS-terminating proxy (`--public-url https://…`): key cookies are `__Host-` and
//! `Secure`, every response carries HSTS, and reports link to the public address. The cookie
//! setting holds for the whole process: the test runs in a process of its own (nextest).

use crate::common::*;
use server::command::cli::ServeConfig;
use server::public_url::PublicUrl;

#[tokio::test]
async fn over_https_cookies_are_host_only_and_secure_with_hsts_and_absolute_links() {
    let (_dir, database) = temp_database();
    let mut config = ServeConfig::new(
        "127.0.0.1:0".parse().unwrap(),
        app::store::Database::SqliteFile(database.clone()),
    );
    config.public_url = Some(PublicUrl::parse("https://planner.example.com/").unwrap());
    // The test reaches the server at its own address, as a proxy would.
    config.allowed_hosts = vec!["127.0.0.1".into()];
    let server = TestServer::start_with(config).await;
    let saved = server.save(&seventy_b_on_256_gpus()).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(
        saved.headers()["strict-transport-security"],
        "max-age=31536000"
    );
    let cookie = saved.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("__Host-fpk_"), "{cookie}");
    assert!(
        cookie.contains("Secure") && cookie.contains("Path=/"),
        "{cookie}"
    );
    let saved: serde_json::Value = saved.json().await.unwrap();
    let id = saved["id"].as_str().unwrap();
    // The browser sends the cookie back under its new name, and it still grants editing.
    let pair = cookie.split(';').next().unwrap();
    let edit = server.get_with_cookie(&format!("/d/{id}/edit"), pair).await;
    assert_eq!(edit.status(), 200);
    let (status, report) = server.page(&format!("/d/{id}/r/1/report")).await;
    assert_eq!(status, 200);
    assert!(
        report.contains(&format!("https://planner.example.com/d/{id}/r/1")),
        "the cover's share link is absolute"
    );
    // The public URL is the origin the cross-site check expects.
    let from_public = server
        .client
        .post(format!("{}/fn/save_design", server.base))
        .header("origin", "https://planner.example.com")
        .json(&serde_json::json!({ "spec": seventy_b_on_256_gpus() }))
        .send()
        .await
        .unwrap();
    assert_eq!(from_public.status(), 200);
    server.stop().await;
}
