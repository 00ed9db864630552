//! The world a report is typeset in: the template, the report's data as one JSON file, and the
//! fonts bundled with Typst (nothing is read from disk or the network).

use std::sync::LazyLock;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Dict, Duration, IntoValue};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

/// The report's layout, in Typst markup; it reads everything it shows from `/report.json`.
const TEMPLATE: &str = include_str!("report.typ");

struct Fonts {
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

/// Libertinus Serif for text, DejaVu Sans Mono for configuration snippets: loaded once.
static FONTS: LazyLock<Fonts> = LazyLock::new(|| {
    let fonts: Vec<Font> = typst_assets::fonts()
        .flat_map(|data| Font::iter(Bytes::new(data)))
        .collect();
    Fonts {
        book: LazyHash::new(FontBook::from_fonts(&fonts)),
        fonts,
    }
});

/// The paper a report is set on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    pub fn parse(text: &str) -> Option<Paper> {
        match text {
            "a4" => Some(Paper::A4),
            "letter" | "us-letter" => Some(Paper::Letter),
            _ => None,
        }
    }

    fn typst_name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "us-letter",
        }
    }
}

fn library(paper: Paper) -> LazyHash<Library> {
    let mut inputs = Dict::new();
    inputs.insert("paper".into(), paper.typst_name().into_value());
    LazyHash::new(Library::builder().with_inputs(inputs).build())
}

static A4: LazyLock<LazyHash<Library>> = LazyLock::new(|| library(Paper::A4));
static LETTER: LazyLock<LazyHash<Library>> = LazyLock::new(|| library(Paper::Letter));

/// File ids are interned for the life of the process, so every report uses the same two.
fn file_id(path: &str) -> FileId {
    let vpath = VirtualPath::new(path).expect("a valid virtual path");
    RootedPath::new(VirtualRoot::Project, vpath).intern()
}

static MAIN: LazyLock<FileId> = LazyLock::new(|| file_id("/report.typ"));
static DATA: LazyLock<FileId> = LazyLock::new(|| file_id("/report.json"));

pub struct ReportWorld {
    paper: Paper,
    main: Source,
    data: Bytes,
}

impl ReportWorld {
    /// A world holding the report's data (`ReportDocument` as JSON).
    pub fn new(data: Vec<u8>, paper: Paper) -> ReportWorld {
        ReportWorld {
            paper,
            main: Source::new(*MAIN, TEMPLATE.to_string()),
            data: Bytes::new(data),
        }
    }
}

impl World for ReportWorld {
    fn library(&self) -> &LazyHash<Library> {
        match self.paper {
            Paper::A4 => &A4,
            Paper::Letter => &LETTER,
        }
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &FONTS.book
    }

    fn main(&self) -> FileId {
        *MAIN
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == *MAIN {
            Ok(self.main.clone())
        } else {
            Err(FileError::NotFound(id.vpath().get_without_slash().into()))
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == *DATA {
            Ok(self.data.clone())
        } else if id == *MAIN {
            Ok(Bytes::from_string(self.main.clone()))
        } else {
            Err(FileError::NotFound(id.vpath().get_without_slash().into()))
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        FONTS.fonts.get(index).cloned()
    }

    /// Reports carry the date they were saved, not the day they are typeset.
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}
