//! The advisor ranks on the months too (issue 68 item 4): the input and the few lowest-spread
//! candidates are simulated for 12 months, their month 12 beside today's figures.

use super::common::{preset, small};
use rowkey_lab::advise::{advise, AdviseOptions};

#[test]
fn a_time_first_key_on_four_servers_is_one_hot_server_at_month_12_and_the_pick_is_not() {
    // The time-first telecom key writes at the key space's end: one region, whose daughters stay
    // on its server, so one server takes every hour's writes, past twice the even quarter on 4
    // servers. The recommended salted or reordered key spreads them.
    let opts = AdviseOptions {
        servers: Some(4),
        ..small()
    };
    let a = advise(&preset("seed000-telecom-time-first"), &opts).unwrap();
    let input = a.candidates[0]
        .months
        .as_ref()
        .expect("the input is simulated");
    assert_eq!(input.month, 12);
    assert!(input.hot_server, "{input:?}");
    assert!(input.hottest_server_write_share > 0.99, "{input:?}");
    let simulated = a.candidates.iter().filter(|c| c.months.is_some()).count();
    // The input, the few lowest spreads, and the pick when it is not among them.
    assert!(
        simulated <= 2 + rowkey_lab::advise::months::MONTHS_CANDIDATES,
        "{simulated}"
    );
    assert_ne!(a.recommended.index, 0);
    let pick = a.candidates[a.recommended.index]
        .months
        .as_ref()
        .expect("the pick is simulated");
    assert!(!pick.hot_server, "{pick:?}");
    assert!(
        pick.hottest_server_write_share < 0.5,
        "{}: {pick:?}",
        a.recommended.key_text
    );
    assert!(
        a.recommended
            .why
            .iter()
            .any(|w| w.starts_with("gain: at month 12 the hottest server takes")),
        "{:?}",
        a.recommended.why
    );
    assert!(a.basis.contains("simulated for 12 months"), "{}", a.basis);
}
