//! A figure with its unit, formula and source, and a time against its target: what every
//! number the engine reports is made of.

use crate::units::Seconds;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// A figure with the formula and source that produced it, so that any number shown can
/// "show its work".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "Figure_of_{T}"))]
pub struct Figure<T> {
    pub value: T,
    pub formula: Cow<'static, str>,
    pub source: Cow<'static, str>,
    /// The formula with this design's values substituted, ending in the value as displayed:
    /// "30.6 GB ÷ 47.5 GB/s = 0.644 s" (absent in reports from engines before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worked: Option<Cow<'static, str>>,
}

impl<T> Figure<T> {
    // Inlined, so that where the browser drops them the formula and the source are written
    // nowhere in its bundle.
    #[inline(always)]
    pub fn new(
        value: T,
        formula: impl Into<Cow<'static, str>>,
        source: impl Into<Cow<'static, str>>,
    ) -> Self {
        // The browser's evaluation shows no formula or source (the dashboard and the report,
        // which do, are drawn on the server): kept out of the planner's bundle, like the worked
        // lines below.
        if cfg!(target_arch = "wasm32") {
            return Figure {
                value,
                formula: Cow::Borrowed(""),
                source: Cow::Borrowed(""),
                worked: None,
            };
        }
        Figure {
            value,
            formula: formula.into(),
            source: source.into(),
            worked: None,
        }
    }
}

impl<T: fmt::Display> Figure<T> {
    /// The formula worked with this design's values: `substituted` is its left-hand side
    /// ("30.6 GB ÷ 47.5 GB/s"), and the value as displayed is appended after an equals sign,
    /// so the worked line always ends in the very figure shown.
    pub fn worked(mut self, substituted: impl fmt::Display) -> Self {
        // The browser's evaluation shows no worked formula (its dashboard, which does, is drawn
        // on the server): not written there, which keeps the writing of every one of them out
        // of the planner's bundle.
        if cfg!(target_arch = "wasm32") || VALUES_ONLY.get() {
            return self;
        }
        use fmt::Write;
        // Most worked lines are 40-100 bytes: one allocation instead of growing from 8.
        let mut line = String::with_capacity(128);
        let _ = write!(line, "{substituted} = {}", self.value);
        self.worked = Some(line.into());
        self
    }

    /// [`Self::worked`] with the substitution written only where it is kept.
    pub fn worked_with<D: fmt::Display>(self, substituted: impl FnOnce() -> D) -> Self {
        if cfg!(target_arch = "wasm32") || VALUES_ONLY.get() {
            return self;
        }
        self.worked(substituted())
    }
}

thread_local! {
    /// Set while an evaluation whose explanations nobody reads runs on this thread.
    static VALUES_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `evaluate` run for its values alone: no worked line ([`Figure::worked`] leaves it absent)
/// and no fabric plan's reason is written, which would be most of the work of an evaluation
/// read for a time or two.
pub(crate) fn values_only<R>(evaluate: impl FnOnce() -> R) -> R {
    /// Puts the flag back as it was, also when `evaluate` unwinds.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            VALUES_ONLY.set(self.0);
        }
    }
    let _restore = Restore(VALUES_ONLY.replace(true));
    evaluate()
}

/// Whether the evaluation running on this thread writes its explanations: not inside
/// [`values_only`], and not in the browser, whose planner shows none (the dashboard and the
/// report, which do, are drawn on the server), like its figures' formulas.
pub(crate) fn explaining() -> bool {
    !cfg!(target_arch = "wasm32") && !VALUES_ONLY.get()
}

/// A time against the target it must stay within, for a pass or fail verdict:
/// "18.9 ms of 5.00 ms target — over".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TargetVerdict {
    pub value: Seconds,
    pub target: Seconds,
    /// `value ≤ target`.
    pub meets: bool,
}

impl TargetVerdict {
    pub fn new(value: Seconds, target: Seconds) -> Self {
        TargetVerdict {
            value,
            target,
            meets: value <= target,
        }
    }

    /// Time left under the target: target − value, negative when over.
    pub fn margin(&self) -> Seconds {
        self.target - self.value
    }

    /// "within" or "over".
    pub fn label(&self) -> &'static str {
        if self.meets {
            "within"
        } else {
            "over"
        }
    }
}

impl fmt::Display for TargetVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} target — {}",
            self.value,
            self.target,
            self.label()
        )
    }
}
