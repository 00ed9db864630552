//! A revision's hand-off files over HTTP: listed with what each is for, each downloadable, the
//! same bytes every time, the bundle made once however many ask for it.

use crate::common::*;

#[tokio::test]
async fn a_superpod_revision_lists_its_handoff_files_and_serves_each_the_same_every_time() {
    let (_dir, database) = temp_database();
    let server = TestServer::start(&database).await;
    let spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    let design = server.create(&spec).await;
    let base = format!("/d/{}/r/1/handoff", design.id);
    let (status, page) = server.page(&base).await;
    assert_eq!(status, 200);
    let expected = engine::handoff::bundle(
        &engine::DesignSpec::from_value(spec).unwrap(),
        &engine::evaluate(&engine::DesignSpec::from_json(engine::examples::SUPERPOD_4SU).unwrap())
            .unwrap(),
    );
    assert!(expected.len() > 5, "{} files", expected.len());
    for (name, text) in &expected {
        assert!(
            page.contains(&format!("{base}/{name}")),
            "the page links {name}"
        );
        let response = server.get(&format!("{base}/{name}")).await;
        assert_eq!(response.status(), 200, "{name}");
        let disposition = response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            disposition.starts_with("attachment; filename=\""),
            "{disposition}"
        );
        assert_eq!(
            &response.text().await.unwrap(),
            text,
            "{name} as the engine writes it"
        );
    }
    assert!(page.contains("What each file is for"));

    // Every file in one zip, each under its own name and byte for byte the same.
    assert!(
        page.contains(&format!("{base}.zip")),
        "the page links the zip"
    );
    let response = server.get(&format!("{base}.zip")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let bytes = response.bytes().await.unwrap();
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    assert_eq!(archive.len(), expected.len());
    for (name, text) in &expected {
        let mut file = archive.by_name(name).unwrap();
        let mut read = String::new();
        std::io::Read::read_to_string(&mut file, &mut read).unwrap();
        assert_eq!(&read, text, "{name} in the zip");
    }
    let (status, _) = server.page(&format!("{base}/no-such-file.txt")).await;
    assert_eq!(status, 404);
    let (status, _) = server.page("/d/aaaaaaaaaaaaaaaaaaaaaaaa/r/1/handoff").await;
    assert_eq!(status, 404);
    let (status, design_page) = server.page(&format!("/d/{}", design.id)).await;
    assert_eq!(status, 200);
    assert!(
        design_page.contains(&base),
        "the design page links the hand-off files"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_revision_s_bundle_is_made_once_however_many_ask_for_its_files_at_once() {
    use std::sync::atomic::Ordering;
    let (_dir, database) = temp_database();
    let server = std::sync::Arc::new(TestServer::start(&database).await);
    let spec: serde_json::Value = serde_json::from_str(engine::examples::SUPERPOD_4SU).unwrap();
    let design = server.create(&spec).await;
    let before = server::resources::handoff::BUNDLES_MADE.load(Ordering::SeqCst);
    let files = [
        "README.txt",
        "cvt/compute-p2p.csv",
        "netbox/cables.csv",
        "slurm/topology.conf",
    ];
    let asks: Vec<_> = (0..16)
        .map(|i| {
            let server = server.clone();
            let path = format!("/d/{}/r/1/handoff/{}", design.id, files[i % files.len()]);
            tokio::spawn(async move { server.get(&path).await.status().as_u16() })
        })
        .collect();
    for ask in asks {
        assert_eq!(ask.await.unwrap(), 200);
    }
    let zip = server
        .get(&format!("/d/{}/r/1/handoff.zip", design.id))
        .await;
    assert_eq!(zip.status(), 200);
    assert_eq!(
        server::resources::handoff::BUNDLES_MADE.load(Ordering::SeqCst) - before,
        1,
        "made once, then kept"
    );
    std::sync::Arc::try_unwrap(server)
        .ok()
        .unwrap()
        .stop()
        .await;
}
