//! Money and power as the pages print them.

/// US dollars, whole, grouped in thousands.
pub fn usd(usd: f64) -> String {
    let whole = usd.round();
    let grouped = engine::thousands(whole.abs());
    format!("{}${grouped}", if whole < 0.0 { "-" } else { "" })
}

pub fn watts(w: f64) -> String {
    if w >= 1000.0 {
        format!("{:.1} kW", w / 1000.0)
    } else {
        format!("{w:.0} W")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dollars_are_grouped_in_thousands() {
        assert_eq!(super::usd(946_040.4), "$946,040");
        assert_eq!(super::usd(7391.0), "$7,391");
        assert_eq!(super::usd(-1500.0), "-$1,500");
        assert_eq!(super::watts(28_800.0), "28.8 kW");
        assert_eq!(super::watts(225.0), "225 W");
    }
}
