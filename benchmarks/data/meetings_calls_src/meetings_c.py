# ruff: noqa: E501
"""Meetings, part C: council committee, retros, nonprofit budget, operations, reviews."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "m17-council-bike-lanes",
        "meeting",
        "timestamped",
        "en",
        """
[18:30:05] Cllr Brennan (chair): Good evening. This is the transport committee. Item 4 is the proposal for protected bike lanes on Mill Road. Officer, please summarise.
[18:30:20] Ms Achebe (officer): The scheme covers 1.8 kilometres between the station and the hospital. It removes 64 on-street parking spaces and costs 2.3 million pounds, of which 1.9 million is a government grant. The grant must be spent by March 2027.
[18:31:02] Cllr Patel: Traders on Mill Road sent a petition with 412 signatures against the loss of parking.
[18:31:15] Ms Achebe (officer): We have proposed 40 replacement spaces in the Mill Lane car park, free for the first hour.
[18:31:30] Cllr Lowe: Cycling casualties on Mill Road have doubled in three years. I support the scheme.
[18:31:45] Cllr Brennan (chair): We'll vote on recommending the scheme to cabinet. In favour?
[18:31:52] Cllr Brennan (chair): Six in favour. Against? Three. Abstentions? None. The recommendation is carried six to three.
[18:32:05] Cllr Patel: I move an amendment that the scheme includes a loading bay for traders.
[18:32:10] Cllr Brennan (chair): The amendment is accepted without a vote, as the officer confirms a loading bay fits in the design.
[18:32:20] Cllr Patel: And a second amendment, to delay the scheme by a year for further consultation.
[18:32:26] Cllr Brennan (chair): On the delay: in favour, three; against, six. The delay amendment falls.
[18:32:40] Cllr Brennan (chair): Ms Achebe, please prepare the cabinet report for the 12th of November, with the loading bay. I'll write to the traders' association with the outcome.
""",
        """
**Transport committee, item 4: Mill Road protected bike lanes**

The officer, Ms Achebe, described a 1.8 km scheme between the station and the hospital costing £2.3 million, £1.9 million of it a government grant that must be spent by March 2027. It removes 64 parking spaces; 40 replacement spaces are proposed in the Mill Lane car park, free for the first hour. Cllr Patel reported a traders' petition of 412 signatures against the loss of parking, while Cllr Lowe noted that cycling casualties on Mill Road have doubled in three years.

**Votes**
- Recommending the scheme to cabinet: carried **6 to 3**, no abstentions.
- Cllr Patel's amendment adding a loading bay for traders: accepted without a vote.
- Cllr Patel's amendment to delay the scheme by a year: **fell, 3 to 6**.

**Actions:** Ms Achebe prepares the cabinet report, including the loading bay, for 12 November; the chair, Cllr Brennan, writes to the traders' association.
""",
        owner_swap=(
            "Ms Achebe prepares the cabinet report",
            "Cllr Lowe prepares the cabinet report",
        ),
        decision_reversal=(
            "Cllr Patel's amendment to delay the scheme by a year: **fell, 3 to 6**.",
            "Cllr Patel's amendment to delay the scheme by a year: **carried, 6 to 3**.",
        ),
        contradiction=(
            "Cllr Patel's amendment adding a loading bay for traders: accepted without a vote.",
            "Cllr Patel's amendment adding a loading bay for traders: rejected, as a loading bay does not fit in the design.",
        ),
        new_number=("It removes 64 parking spaces", "It removes 46 parking spaces"),
        new_name=(
            "Cllr Patel reported a traders' petition",
            "Cllr Patel reported a petition organised by Keith Mallory of the traders",
        ),
        grammar=(
            "It removes 64 parking spaces; 40 replacement spaces are proposed in the Mill Lane car park, free for the first hour.",
            "It remove 64 parking spaces; 40 replacement space is propose in the Mill Lane car park, free for the first hours.",
        ),
    ),
    case(
        "m18-launch-retro",
        "meeting",
        "speaker",
        "en",
        """
Chloe: Welcome to the retro for the invoicing launch. Let's do what went well, what didn't, and actions. What went well?
Sanjay: The launch itself was smooth. Zero downtime, and 1,120 customers created invoices in the first week, above the 800 we aimed for.
Ruby: The beta group was really useful. Their feedback changed the tax field layout before launch.
Chloe: What didn't go well?
Sanjay: The documentation was late. The help articles went live two days after the launch, and support got about 90 tickets asking how to add a logo.
Ruby: And the PDF export broke for invoices with more than 50 lines. We hotfixed it on day three.
Chloe: Was anyone affected by the PDF bug financially?
Ruby: No. The invoices were still stored correctly; only the PDF was cut off. Nobody sent a wrong amount.
Chloe: Good. So for actions. I'd like docs to be a launch gate from now on: no launch without the help articles live. Everyone agree?
Sanjay: Yes.
Ruby: Yes.
Chloe: Done. Ruby, please add a test for long invoices to the PDF test suite. Sanjay, write a logo help article this week, since that's the top ticket. I'll update the launch checklist with the docs gate.
Sanjay: One more: do we extend the beta programme to the payroll launch?
Chloe: Let's not decide that today. I'll bring it to the planning meeting.
""",
        """
Retro for the invoicing launch (Chloe, Sanjay, Ruby).

**Went well:** a smooth launch with zero downtime; 1,120 customers created invoices in the first week, beating the 800 target. Feedback from the beta group changed the tax field layout before launch.

**Didn't go well:** the help articles went live two days late, and support got about 90 tickets on adding a logo. PDF export broke for invoices with more than 50 lines and was hotfixed on day three; the stored invoices were correct and no one sent a wrong amount.

**Decision:** documentation is now a launch gate: no launch without the help articles live (all agreed). Whether to extend the beta programme to the payroll launch was left for the planning meeting.

**Actions**
- Ruby: add a long-invoice test to the PDF test suite.
- Sanjay: write the logo help article this week.
- Chloe: add the docs gate to the launch checklist.
""",
        owner_swap=(
            "- Ruby: add a long-invoice test to the PDF test suite.",
            "- Sanjay: add a long-invoice test to the PDF test suite.",
        ),
        decision_reversal=(
            "Whether to extend the beta programme to the payroll launch was left for the planning meeting.",
            "The team also agreed to extend the beta programme to the payroll launch.",
        ),
        contradiction=(
            "the stored invoices were correct and no one sent a wrong amount",
            "some stored invoices were wrong and customers sent wrong amounts",
        ),
        new_number=("beating the 800 target", "beating the 950 target"),
        new_name=(
            "Feedback from the beta group changed the tax field layout",
            "Feedback from the beta group, led by Acme Joinery, changed the tax field layout",
        ),
        grammar=(
            "the help articles went live two days late, and support got about 90 tickets on adding a logo.",
            "the help articles goes live two days lately, and support get about 90 ticket on adding a logo.",
        ),
    ),
    case(
        "m19-nonprofit-budget",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

00:00:01.000 --> 00:00:09.000
Fiona: Welcome to the finance subcommittee of the Riverside Food Bank. Item one is next year's budget.

00:00:09.500 --> 00:00:22.000
Hamza: Total income forecast is 318,000 pounds. That's the council grant of 150,000, about 120,000 in donations and 48,000 from the supermarket partnership.

00:00:22.500 --> 00:00:33.000
Hamza: Spending is forecast at 331,000, so we have a gap of 13,000.

00:00:33.500 --> 00:00:44.000
Fiona: Where does the increase come from?

00:00:44.500 --> 00:00:58.000
Hamza: Mostly the new van lease, 9,000 a year, and the rent review on the warehouse, which added 6,000.

00:00:58.500 --> 00:01:10.000
Ingrid: I'd cover the gap from reserves this year. We hold about 95,000, which is more than our policy of four months' running costs.

00:01:10.500 --> 00:01:19.000
Fiona: I'd rather not cut the fresh-food programme. Does anyone want to propose cuts?

00:01:19.500 --> 00:01:26.000
Ingrid: No. I propose we approve the budget with the gap funded from reserves.

00:01:26.500 --> 00:01:34.000
Fiona: All agreed? Hamza, Ingrid, myself. That's approved. The fresh-food programme stays as it is.

00:01:34.500 --> 00:01:45.000
Hamza: We should also apply for the community lottery grant. The deadline is the 30th of January.

00:01:45.500 --> 00:01:55.000
Fiona: Yes. Ingrid, could you lead the lottery application? Hamza, please present the budget to the full board on the 8th.
""",
        """
Riverside Food Bank finance subcommittee (Fiona, Hamza, Ingrid): next year's budget.

- **Income forecast:** £318,000, made up of the £150,000 council grant, about £120,000 in donations and £48,000 from the supermarket partnership.
- **Spending forecast:** £331,000, leaving a £13,000 gap, mainly from the new van lease (£9,000 a year) and the warehouse rent review (£6,000).
- Reserves are about £95,000, above the policy of four months' running costs.

**Decision:** the budget was approved by all three members, with the gap funded from reserves; no cuts, and the fresh-food programme continues unchanged.

**Actions**
- Ingrid leads the application for the community lottery grant (deadline 30 January).
- Hamza presents the budget to the full board on the 8th.
""",
        owner_swap=("- Ingrid leads the application", "- Hamza leads the application"),
        decision_reversal=(
            "the budget was approved by all three members, with the gap funded from reserves; no cuts, and the fresh-food programme continues unchanged",
            "the budget was approved by all three members, with the gap closed by cutting the fresh-food programme instead of using reserves",
        ),
        contradiction=(
            "Reserves are about £95,000, above the policy of four months' running costs.",
            "Reserves are about £95,000, below the policy of four months' running costs.",
        ),
        new_number=(
            "£48,000 from the supermarket partnership",
            "£58,000 from the supermarket partnership",
        ),
        new_name=("from the supermarket partnership", "from the Fairway supermarket partnership"),
        grammar=(
            "Reserves are about £95,000, above the policy of four months' running costs.",
            "Reserves is about £95,000, above of the policy of four month running costs.",
        ),
    ),
    case(
        "m20-warehouse-standup",
        "meeting",
        "timestamped",
        "en",
        """
[06:45:02] Dev: Morning shift stand-up. Quick numbers first, Sally.
[06:45:08] Sally: We shipped 4,870 orders yesterday against a target of 5,200. Picking was slow on aisle 12 because the scanner dock was down until 2pm.
[06:45:31] Dev: Is the dock fixed?
[06:45:33] Sally: Yes, IT replaced it at two. All twelve scanners are charged this morning.
[06:45:45] Kieran: Inbound: three trucks today. The one from Rotterdam is delayed until Thursday because of the strike at the port.
[06:46:02] Dev: That's the pallet of printer cartridges, right? We have orders waiting on that.
[06:46:07] Kieran: Yes, about 230 orders. I'd email those customers today.
[06:46:15] Dev: Do it. And we're not offering express upgrades to make up for it; the carrier can't do it at our volume. Just the delay notice.
[06:46:27] Bronwen: Safety: a forklift clipped the racking in zone C on Saturday. No one was hurt. The racking is inspected and safe, but we've taped off bay C4 until the engineer signs it off on Wednesday.
[06:46:48] Dev: Good. Decision for today: we're bringing in six agency pickers for the afternoon to catch up the backlog. Sally, can you brief them at one?
[06:46:58] Sally: Yes.
[06:47:00] Dev: Bronwen, please send the incident report to head office by end of day.
[06:47:06] Bronwen: Will do.
""",
        """
Warehouse morning stand-up (Dev, Sally, Kieran, Bronwen).

Yesterday 4,870 orders shipped against a 5,200 target; picking on aisle 12 was slow because the scanner dock was down until 2pm. IT replaced it, and all twelve scanners are charged. Of three inbound trucks, the Rotterdam one (printer cartridges) is delayed until Thursday by the port strike, holding up about 230 orders. Those customers get a delay notice only: no express upgrades are being offered, as the carrier cannot handle them at this volume.

A forklift clipped racking in zone C on Saturday; no one was hurt. The racking has been inspected and is safe, but bay C4 stays taped off until the engineer signs it off on Wednesday.

**Decision:** six agency pickers come in this afternoon to clear the backlog.

**Actions**
- Sally briefs the agency pickers at one.
- Kieran emails the customers affected by the delay today.
- Bronwen sends the incident report to head office by end of day.
""",
        owner_swap=(
            "- Sally briefs the agency pickers at one.",
            "- Bronwen briefs the agency pickers at one.",
        ),
        decision_reversal=(
            "**Decision:** six agency pickers come in this afternoon to clear the backlog.",
            "**Decision:** no agency pickers will be brought in; the backlog waits for the regular shifts.",
        ),
        contradiction=(
            "A forklift clipped racking in zone C on Saturday; no one was hurt.",
            "A forklift clipped racking in zone C on Saturday and a picker was hurt.",
        ),
        new_number=("holding up about 230 orders", "holding up about 320 orders"),
        new_name=(
            "IT replaced it, and all twelve scanners are charged.",
            "IT (Gordon Shaw) replaced it, and all twelve scanners are charged.",
        ),
        grammar=(
            "Of three inbound trucks, the Rotterdam one (printer cartridges) is delayed until Thursday by the port strike, holding up about 230 orders.",
            "Of three inbound truck, the Rotterdam one (printer cartridges) are delay until Thursday by the port strike, holding up about 230 order.",
        ),
    ),
    case(
        "m21-design-review",
        "meeting",
        "speaker",
        "en",
        """
Leo: This is the design review for the new patient booking screen. I've shared the prototype. Ana, you ran the usability tests?
Ana: Yes, eight patients, four of them over 65. Six of the eight booked an appointment without help. The two who struggled both missed the date picker on the second step.
Leo: What did they do instead?
Ana: They scrolled to the bottom looking for a "next" button. The date picker sits above the fold on desktop but below it on small phones.
Kenji: We could move the date picker to the top and make the calendar full-width on mobile.
Leo: Any accessibility issues?
Ana: The colour contrast on the time slots fails the guidelines: 3.1 to 1 where we need 4.5 to 1. That has to be fixed before release.
Leo: Agreed. Decisions then: the date picker moves to the top, full-width on mobile, and the time-slot colours are fixed. We are keeping the three-step flow; we won't merge it into one page, because the tests didn't show a problem with the steps.
Kenji: I'll do the layout change by Tuesday.
Ana: I'll rerun the test with five more patients once Kenji's change is in, including at least two screen-reader users.
Leo: Great. I'll fix the colour tokens myself. We'll review again next Thursday.
""",
        """
## Patient booking screen: design review

Ana tested the prototype with eight patients, four of them over 65: six booked without help. The two who struggled missed the date picker on the second step, which sits below the fold on small phones, and scrolled down looking for a "next" button. The time-slot colour contrast fails the guidelines (3.1:1 against the required 4.5:1) and must be fixed before release.

## Decisions
- The date picker moves to the top, full-width on mobile.
- The time-slot colours are fixed.
- The three-step flow stays; it will not be merged into one page, since the tests showed no problem with the steps.

## Actions
- Kenji: the layout change by Tuesday.
- Ana: rerun the test with five more patients, at least two of them screen-reader users, once the change is in.
- Leo: fix the colour tokens.

Next review: Thursday.
""",
        owner_swap=("- Leo: fix the colour tokens.", "- Kenji: fix the colour tokens."),
        decision_reversal=(
            "- The three-step flow stays; it will not be merged into one page, since the tests showed no problem with the steps.",
            "- The three-step flow will be merged into one page, since the tests showed a problem with the steps.",
        ),
        contradiction=("must be fixed before release", "can be fixed after release"),
        new_number=("four of them over 65", "five of them over 65"),
        new_name=(
            "Ana tested the prototype with eight patients",
            "Ana and Dr Whitfield tested the prototype with eight patients",
        ),
        grammar=(
            'The two who struggled missed the date picker on the second step, which sits below the fold on small phones, and scrolled down looking for a "next" button.',
            'The two who struggles missed the date picker on the second step, which sit below the fold on small phones, and scrolling down looking for a "next" button.',
        ),
    ),
    case(
        "m22-procurement-committee",
        "meeting",
        "speaker",
        "en",
        """
Chair (Rebecca Lyons): The procurement committee is in session; five members present. One decision today: the supplier for the new laptop fleet, 340 machines.
Simon Hale: Three bids were received. Northwind Systems at 1,040 pounds a unit, Brightstone at 985, and Calder IT at 1,110.
Rebecca Lyons: Brightstone is cheapest. Any reason not to go with them?
Adaeze Nwosu: Their warranty is only one year on-site; the other two offer three years. Over three years I estimate repairs would cost us about 28,000 with Brightstone.
Simon Hale: That puts Brightstone's real cost above Northwind's. Northwind also delivered the last fleet on time.
Rebecca Lyons: I propose Northwind at 1,040 a unit with the three-year warranty. Vote please.
Rebecca Lyons: For: Simon, Adaeze, Petra and myself. Against: Gordon. Four to one, Northwind is selected.
Gordon Beck: My concern is simply the upfront cost. I'd like that recorded.
Rebecca Lyons: Recorded. Note we are not signing a framework agreement for future purchases; this is a one-off order.
Petra Ilic: When do we need delivery?
Simon Hale: By the 15th of July, before the intake of new staff.
Rebecca Lyons: Simon, please issue the award letter by Friday. Adaeze, draft the warranty terms for the contract. I'll inform the two unsuccessful bidders.
""",
        """
The procurement committee (five members, chaired by Rebecca Lyons) chose the supplier for a fleet of 340 laptops.

Bids: Northwind Systems £1,040 a unit, Brightstone £985 and Calder IT £1,110. Brightstone offers only a one-year on-site warranty against three years from the other two; Adaeze Nwosu estimated about £28,000 of repairs over three years with Brightstone, putting its real cost above Northwind's. Northwind also delivered the last fleet on time.

**Vote:** Northwind selected at £1,040 a unit with a three-year warranty, **4 to 1** (Gordon Beck against, citing the upfront cost). This is a one-off order; no framework agreement for future purchases will be signed. Delivery is needed by 15 July, before the new staff intake.

**Actions:** Simon issues the award letter by Friday; Adaeze drafts the warranty terms; Rebecca informs the two unsuccessful bidders.
""",
        owner_swap=(
            "Simon issues the award letter by Friday",
            "Petra issues the award letter by Friday",
        ),
        decision_reversal=(
            "**4 to 1** (Gordon Beck against, citing the upfront cost)",
            "**unanimously** (Gordon Beck only noting the upfront cost)",
        ),
        contradiction=(
            "Northwind also delivered the last fleet on time.",
            "Northwind delivered the last fleet late.",
        ),
        new_number=("a fleet of 340 laptops", "a fleet of 430 laptops"),
        new_name=(
            "Bids: Northwind Systems £1,040 a unit",
            "Bids: Northwind Systems £1,040 a unit, Dell Direct £1,020",
        ),
        grammar=(
            "Northwind also delivered the last fleet on time.",
            "Northwind also deliver the last fleets in time.",
        ),
    ),
    case(
        "m23-lab-meeting",
        "meeting",
        "timestamped",
        "en",
        """
[10:02] Prof. Lindgren: Lab meeting. Let's start with the sequencing run. Ayesha?
[10:03] Ayesha: The run finished on Monday. We got 412 million reads, but sample 7 failed quality control, so we have 23 usable samples out of 24.
[10:04] Prof. Lindgren: Can we re-sequence sample 7?
[10:04] Ayesha: There's enough RNA left for one more attempt. The core facility can fit it in on the 19th.
[10:05] Prof. Lindgren: Do it. Tobias, the grant report?
[10:05] Tobias: The interim report for the foundation is due on the 30th. I've drafted the methods and results; the budget section still needs the spending figures from the department.
[10:06] Prof. Lindgren: I'll get those from the finance office this week. What about the conference abstract?
[10:07] Tobias: The deadline is the 12th. I'd submit the pilot results now rather than wait for the full data.
[10:07] Prof. Lindgren: I disagree; the pilot had only six samples. We won't submit an abstract this cycle. We'll aim for the spring meeting with the full dataset.
[10:08] Tobias: Okay.
[10:08] Prof. Lindgren: Last thing: Mateo starts on Monday as the new postdoc. Ayesha, can you give him the lab safety induction? And Tobias, please set up his accounts on the cluster.
[10:09] Ayesha: Sure, I'll do it Monday morning.
""",
        """
**Lab meeting (Prof. Lindgren, Ayesha, Tobias)**

- **Sequencing:** the run finished on Monday with 412 million reads. Sample 7 failed quality control, leaving 23 of 24 samples usable. There is enough RNA for one more attempt, and the core facility will re-sequence it on the 19th.
- **Grant report:** the interim report to the foundation is due on the 30th. Tobias has drafted methods and results; Prof. Lindgren will get the spending figures for the budget section from the finance office this week.
- **Conference:** no abstract this cycle (deadline the 12th), because the pilot had only six samples; the aim is the spring meeting with the full dataset.
- **New postdoc:** Mateo starts on Monday. Ayesha gives him the lab safety induction on Monday morning, and Tobias sets up his cluster accounts.
""",
        owner_swap=(
            "Ayesha gives him the lab safety induction",
            "Tobias gives him the lab safety induction",
        ),
        decision_reversal=(
            "no abstract this cycle (deadline the 12th), because the pilot had only six samples; the aim is the spring meeting with the full dataset",
            "the pilot results will be submitted as an abstract this cycle (deadline the 12th), rather than waiting for the spring meeting",
        ),
        contradiction=(
            "There is enough RNA for one more attempt",
            "There is no RNA left for another attempt, yet",
        ),
        new_number=("with 412 million reads", "with 421 million reads"),
        new_name=(
            "Tobias has drafted methods and results;",
            "Tobias and Dr Okonkwo have drafted methods and results;",
        ),
        grammar=(
            "Tobias has drafted methods and results;",
            "Tobias have drafting methods and result;",
        ),
    ),
    case(
        "m24-api-latency-review",
        "meeting",
        "speaker",
        "en",
        """
Ines: Let's review last week's latency problem on the public API. Kai, the summary?
Kai: From Monday to Wednesday the p99 latency of the orders endpoint went from 300 milliseconds to about 2.4 seconds at peak. Error rates stayed under 0.5 percent, so it was slow rather than down.
Ines: Cause?
Kai: A new index on the orders table was created without the concurrent option. It locked the table during the build on Monday, and after that the query planner chose a bad plan for the date-range queries.
Pedro: We fixed it on Wednesday by dropping the index and rebuilding it concurrently. Latency was back to normal within ten minutes.
Ines: Did any customer breach their SLA?
Pedro: One enterprise customer, Tessellate, has a p99 SLA of one second. They were above it for about five hours in total.
Ines: Then we owe them a service credit under the contract. Let's apply the 10 percent credit on their next invoice. We won't wait for them to ask.
Kai: Should we ban non-concurrent index builds?
Ines: Yes. Decision: schema migrations that add indexes must use the concurrent option, and the migration linter should enforce it.
Pedro: I can add the lint rule this week.
Ines: Good. Kai, please write the customer-facing incident note by Thursday. I'll tell the account manager about the credit.
""",
        """
Review of last week's latency problem on the public API (Ines, Kai, Pedro).

From Monday to Wednesday the orders endpoint's p99 latency rose from 300 ms to about 2.4 s at peak; errors stayed below 0.5%, so the API was slow, not down. A new index on the orders table had been built without the concurrent option: it locked the table on Monday, and afterwards the planner picked a bad plan for date-range queries. On Wednesday the index was dropped and rebuilt concurrently, and latency recovered within ten minutes.

One enterprise customer, Tessellate, whose SLA sets p99 at one second, was above it for about five hours in total.

**Decisions**
- Tessellate gets the contractual 10% service credit on its next invoice, without waiting for them to ask.
- Schema migrations that add indexes must use the concurrent option, enforced by the migration linter.

**Actions**
- Pedro adds the lint rule this week.
- Kai writes the customer-facing incident note by Thursday.
- Ines tells the account manager about the credit.
""",
        owner_swap=("- Pedro adds the lint rule this week.", "- Kai adds the lint rule this week."),
        decision_reversal=(
            "- Tessellate gets the contractual 10% service credit on its next invoice, without waiting for them to ask.",
            "- Tessellate will get the 10% service credit only if they ask for it.",
        ),
        contradiction=(
            "errors stayed below 0.5%, so the API was slow, not down",
            "the API was down, with errors well above 0.5%",
        ),
        new_number=("for about five hours in total", "for about eight hours in total"),
        new_name=(
            "- Ines tells the account manager about the credit.",
            "- Ines tells the account manager, Gemma Price, about the credit.",
        ),
        grammar=(
            "On Wednesday the index was dropped and rebuilt concurrently, and latency recovered within ten minutes.",
            "On Wednesday the index were drop and rebuilded concurrently, and latency recover within ten minute.",
        ),
    ),
]
