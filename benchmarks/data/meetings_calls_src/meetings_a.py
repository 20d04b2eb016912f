# ruff: noqa: E501
"""Meetings, part A: stand-ups, budget reviews, incident reviews, votes, hiring, vendors."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "m01-payments-standup",
        "meeting",
        "speaker",
        "en",
        """
Nadia: Morning all. Quick stand-up, we have fifteen minutes. Marco, you first.
Marco: Yesterday I finished the retry logic for the card-payment webhook. Today I'm writing the integration tests for it. No blockers.
Nadia: Good. Priya?
Priya: I'm still on the currency rounding bug. The invoices in yen were off by one unit on about 340 orders. I found the cause: we round before tax instead of after. The fix should be up for review by Wednesday.
Nadia: Do we need to refund anyone?
Priya: No. The difference was always in the customer's favour, so we're not issuing refunds. Finance agreed with that on Friday.
Nadia: Okay. Joel?
Joel: I've been on the release checklist. The 4.12 release is planned for Thursday the 9th. One blocker: the staging database is still on the old schema.
Nadia: Marco, can you migrate staging today after your tests?
Marco: Yes, I'll run the migration this afternoon and post in the channel when it's done.
Nadia: Great. One decision from me: we will not ship the new checkout page in 4.12. It moves to 4.13 because design hasn't signed off on it.
Joel: Understood. I'll update the release notes to say so.
Nadia: And Priya, please send the rounding post-mortem to the finance list once the fix is merged.
Priya: Will do.
Nadia: Thanks everyone, see you tomorrow.
""",
        """
Payments stand-up with Nadia, Marco, Priya and Joel.

Marco finished the retry logic for the card-payment webhook and is writing its integration tests today. Priya found the cause of the yen rounding bug that affected about 340 orders: rounding happened before tax instead of after. Her fix should be up for review by Wednesday. No refunds will be issued, because the difference was always in the customer's favour; Finance agreed to this on Friday. Release 4.12 is planned for Thursday the 9th, and the staging database still being on the old schema is a blocker.

**Decision:** the new checkout page will not ship in 4.12; it moves to 4.13 because design has not signed off.

**Action items**
- Marco: migrate the staging database this afternoon and post in the channel when done.
- Joel: update the release notes.
- Priya: send the rounding post-mortem to the finance list once the fix is merged.
""",
        owner_swap=(
            "- Marco: migrate the staging database",
            "- Joel: migrate the staging database",
        ),
        decision_reversal=(
            "the new checkout page will not ship in 4.12; it moves to 4.13 because design has not signed off",
            "the new checkout page will ship in 4.12 instead of moving to 4.13, even though design has not signed off",
        ),
        contradiction=("No refunds will be issued, because", "Refunds will be issued even though"),
        new_number=("about 340 orders", "about 430 orders"),
        new_name=(
            "Finance agreed to this on Friday",
            "Helen Barker from Finance agreed to this on Friday",
        ),
        grammar=(
            "Marco finished the retry logic for the card-payment webhook and is writing its integration tests today.",
            "Marco have finish the retry logic for the card-payment webhook and are write its integration tests today.",
        ),
    ),
    case(
        "m02-q3-budget-review",
        "meeting",
        "timestamped",
        "en",
        """
[00:00:04] Grace: Let's start. This is the Q3 budget review for the customer operations group. Tomasz, the headline figures please.
[00:00:15] Tomasz: We spent 1.46 million against a budget of 1.52 million, so we are about 60 thousand under. The underspend is almost all in travel and training.
[00:00:41] Grace: And headcount?
[00:00:44] Tomasz: We're at 58 people. Two roles in the Leeds team are still open, which is part of why salaries came in under.
[00:01:10] Ewa: On tooling, the call-recording licence went up by 18 percent at renewal. That's 41 thousand a year now instead of about 35.
[00:01:32] Grace: Did we look at alternatives?
[00:01:35] Ewa: Two vendors quoted, but neither supports our Polish and Czech queues, so we renewed for one year only, not three.
[00:02:02] Grace: Fine. Proposal for Q4: move 25 thousand of the travel underspend into the training budget for the new knowledge-base rollout. Any objections?
[00:02:15] Tomasz: None from me.
[00:02:17] Ewa: Agreed.
[00:02:19] Grace: Then that's decided. We are not asking for any increase to the overall Q4 budget.
[00:02:33] Grace: Actions. Tomasz, please send the revised Q4 forecast to finance by the 14th of October. Ewa, start the vendor review for call recording in January so we have options before the next renewal.
[00:02:52] Ewa: I'll set that up.
[00:02:55] Tomasz: And I'll include the two open Leeds roles in the forecast.
[00:03:01] Grace: Thanks both.
""",
        """
## Q3 budget review (customer operations)

Q3 spending was 1.46 million against a budget of 1.52 million, about 60 thousand under, mostly in travel and training. Headcount is 58; two Leeds roles remain open. The call-recording licence rose 18% at renewal to 41 thousand a year. Two other vendors quoted, but neither supports the Polish and Czech queues, so the licence was renewed for one year rather than three.

### Decisions
- 25 thousand of the travel underspend moves to the training budget for the knowledge-base rollout (no objections).
- No increase to the overall Q4 budget will be requested.

### Action items
- Tomasz sends the revised Q4 forecast, including the two open Leeds roles, to finance by 14 October.
- Ewa starts a vendor review for call recording in January, ahead of the next renewal.
""",
        owner_swap=(
            "- Tomasz sends the revised Q4 forecast",
            "- Ewa sends the revised Q4 forecast",
        ),
        decision_reversal=(
            "- No increase to the overall Q4 budget will be requested.",
            "- An increase to the overall Q4 budget will be requested.",
        ),
        contradiction=(
            "but neither supports the Polish and Czech queues, so the licence was renewed for one year rather than three",
            "and both support the Polish and Czech queues, but the licence was renewed for one year rather than three",
        ),
        new_number=("rose 18% at renewal", "rose 24% at renewal"),
        new_name=("Two other vendors quoted", "Two other vendors, including Verbio, quoted"),
        grammar=(
            "Headcount is 58; two Leeds roles remain open.",
            "Headcount are 58; two Leeds role remains open.",
        ),
    ),
    case(
        "m03-db-outage-incident-review",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

00:00:01.000 --> 00:00:07.000
<v Hana Kim>Okay, this is the review of Tuesday's outage of the orders database. I'll run it. Luis, timeline first.

00:00:07.500 --> 00:00:19.000
<v Luis Ortega>At 14:02 the primary ran out of disk. Writes failed for 47 minutes. We failed over to the replica at 14:49 and service was back by 14:51.

00:00:19.500 --> 00:00:27.000
<v Hana Kim>Why did the disk fill up?

00:00:27.500 --> 00:00:41.000
<v Luis Ortega>A logging change from the week before turned on verbose query logs. They grew about 60 gigabytes a day. The disk alert was set at 95 percent, which gave us less than an hour of warning.

00:00:41.500 --> 00:00:52.000
<v Bea Lindqvist>Customer impact: about 2,300 orders failed at checkout. Support had 410 contacts that afternoon. No payment was taken for the failed orders, so nobody was charged twice.

00:00:52.500 --> 00:01:03.000
<v Hana Kim>Good, that's important. So the decisions. First, the disk alert moves from 95 to 80 percent. Second, logging changes to production databases now need a second reviewer. Any disagreement?

00:01:03.500 --> 00:01:08.000
<v Luis Ortega>No, both make sense.

00:01:08.500 --> 00:01:17.000
<v Bea Lindqvist>Agreed. Are we sending customers a discount code?

00:01:17.500 --> 00:01:27.000
<v Hana Kim>No. We discussed it with marketing and we're not doing a discount code; we'll send an apology email to the affected customers instead.

00:01:27.500 --> 00:01:38.000
<v Hana Kim>Actions: Luis changes the alert threshold today and adds a disk-growth forecast to the dashboard by Friday. Bea drafts the apology email and sends it to me for review by Thursday.

00:01:38.500 --> 00:01:42.000
<v Bea Lindqvist>Will do.
""",
        """
Incident review of Tuesday's orders-database outage, led by Hana Kim.

**What happened.** At 14:02 the primary database ran out of disk and writes failed for 47 minutes, until the failover to the replica at 14:49; service was back by 14:51. The cause was a logging change the week before that enabled verbose query logs, which grew about 60 GB a day, while the disk alert at 95% gave less than an hour's warning.

**Impact.** About 2,300 orders failed at checkout and support had 410 contacts that afternoon. No payment was taken for the failed orders, so no one was double-charged.

**Decisions**
- The disk alert threshold moves from 95% to 80%.
- Logging changes to production databases now need a second reviewer.
- No discount code will be sent; affected customers get an apology email instead.

**Actions**
- Luis: change the alert threshold today and add a disk-growth forecast to the dashboard by Friday.
- Bea: draft the apology email and send it to Hana for review by Thursday.
""",
        owner_swap=(
            "- Bea: draft the apology email and send it to Hana",
            "- Luis: draft the apology email and send it to Hana",
        ),
        decision_reversal=(
            "- No discount code will be sent; affected customers get an apology email instead.",
            "- Affected customers will get a discount code along with an apology email.",
        ),
        contradiction=(
            "No payment was taken for the failed orders, so no one was double-charged.",
            "Payment was taken for the failed orders, so some customers were double-charged.",
        ),
        new_number=("writes failed for 47 minutes", "writes failed for 74 minutes"),
        new_name=(
            "Incident review of Tuesday's orders-database outage, led by Hana Kim.",
            "Incident review of Tuesday's orders-database outage, led by Hana Kim with Raj Patel from the platform team.",
        ),
        grammar=(
            "The cause was a logging change the week before that enabled verbose query logs, which grew about 60 GB a day, while the disk alert at 95% gave less than an hour's warning.",
            "The cause were a logging change the week before that enable verbose query logs, which grows about 60 GB a day, while the disk alert at 95% give less than an hour's warning.",
        ),
    ),
    case(
        "m04-board-office-relocation",
        "meeting",
        "speaker",
        "en",
        """
Chair (Margaret Osei): I call the meeting to order. Seven directors are present, so we have a quorum. The only item is the proposal to relocate the head office from Harbour Street to the Northgate business park.
Daniel Frost: The Northgate lease is 212,000 pounds a year against 265,000 at Harbour Street. It's a ten-year lease with a break clause at year five. The move itself would cost about 180,000.
Leila Haddad: My concern is staff travel. Around a third of our staff come in by train and Northgate has no station within two miles.
Daniel Frost: The landlord has offered a shuttle from the station at no cost to us for the first three years.
Owen Price: Only three years, though. After that we'd be paying for it ourselves.
Chair (Margaret Osei): Let's vote. All in favour of relocating to Northgate?
Chair (Margaret Osei): Five in favour: Daniel, Owen, Priscilla, Ken and myself. Against?
Chair (Margaret Osei): Two against: Leila and Ruth. No abstentions. The motion carries five to two.
Ruth Amadi: I'd like it minuted that I voted against because of the travel issue.
Chair (Margaret Osei): Noted. We are not committing to the move date today; management will propose one. Daniel, please bring a move plan with a proposed date to the March meeting. Leila, will you work with HR on a staff travel survey before then?
Leila Haddad: Yes, I'll do that.
Chair (Margaret Osei): Thank you. Meeting closed.
""",
        """
The board met with seven directors present (quorum) to consider relocating the head office from Harbour Street to the Northgate business park.

Daniel Frost presented the terms: a ten-year Northgate lease at £212,000 a year, compared with £265,000 at Harbour Street, with a break clause at year five, and moving costs of about £180,000. Leila Haddad raised staff travel, since about a third of staff come by train and Northgate has no station within two miles. The landlord offers a free shuttle from the station for the first three years only.

### Vote
The motion to relocate carried **5 to 2** (for: Daniel, Owen, Priscilla, Ken and the chair, Margaret Osei; against: Leila and Ruth; no abstentions). Ruth Amadi asked for her objection on travel grounds to be minuted.

No move date was set.

### Actions
- Daniel: bring a move plan with a proposed date to the March meeting.
- Leila: run a staff travel survey with HR before then.
""",
        owner_swap=("- Daniel: bring a move plan", "- Owen: bring a move plan"),
        decision_reversal=(
            "The motion to relocate carried **5 to 2**",
            "The motion to relocate was defeated **5 to 2**",
        ),
        contradiction=("No move date was set.", "The move date was set at the meeting."),
        new_number=("moving costs of about £180,000", "moving costs of about £150,000"),
        new_name=(
            "run a staff travel survey with HR before then",
            "run a staff travel survey with Janet Cole from HR before then",
        ),
        grammar=(
            "Leila Haddad raised staff travel, since about a third of staff come by train and Northgate has no station within two miles.",
            "Leila Haddad raise staff travel, since about a third of staff comes by train and Northgate have no station within two mile.",
        ),
    ),
    case(
        "m05-hiring-panel-backend",
        "meeting",
        "speaker",
        "en",
        """
Sophie: Thanks for joining the debrief for the senior backend engineer role. We interviewed three finalists: Amara, Felix and Yusuf. Let's go round. Chen?
Chen: Amara was the strongest in the system design round. She designed the rate limiter cleanly and talked about failure modes without prompting. Felix was solid but needed hints on caching.
Rosa: I ran the coding round. Yusuf finished both problems fastest, but he didn't write any tests and dismissed them when I asked. Amara finished one and a half problems with tests.
Sophie: And the values interview?
Kofi: Amara and Felix were both good. Yusuf was a bit dismissive of the support team, which worries me.
Sophie: So I hear Amara as the first choice. Is anyone against making her an offer?
Chen: No.
Rosa: No, I'm for it.
Kofi: For.
Sophie: Good, that's unanimous. We'll offer at level 5 with a salary of 96,000. We will not offer a signing bonus; the budget doesn't allow it this quarter.
Rosa: What about Felix? I'd keep him warm.
Sophie: Agreed, Felix is our backup. We are rejecting Yusuf.
Sophie: Actions: I'll call Amara with the offer tomorrow. Chen, please write up the system design feedback for all three by Friday. Kofi, please send Felix a note that we'll be in touch within two weeks.
Kofi: Will do.
""",
        """
**Senior backend engineer: panel debrief (Sophie, Chen, Rosa, Kofi)**

The panel interviewed three finalists: Amara, Felix and Yusuf. Amara was strongest in system design (a clean rate limiter, failure modes raised unprompted) and finished one and a half coding problems with tests. Felix was solid but needed hints on caching. Yusuf finished both coding problems fastest but wrote no tests, dismissed them when asked, and was somewhat dismissive of the support team in the values interview.

**Decisions**
- The panel unanimously agreed to offer Amara the role at level 5 with a salary of 96,000.
- No signing bonus will be offered because the budget does not allow it this quarter.
- Felix is the backup candidate; Yusuf is rejected.

**Action items**
- Sophie calls Amara with the offer tomorrow.
- Chen writes up the system design feedback for all three candidates by Friday.
- Kofi tells Felix they will be in touch within two weeks.
""",
        owner_swap=(
            "- Chen writes up the system design feedback",
            "- Rosa writes up the system design feedback",
        ),
        decision_reversal=(
            "- Felix is the backup candidate; Yusuf is rejected.",
            "- Yusuf is the backup candidate; Felix is rejected.",
        ),
        contradiction=(
            "- No signing bonus will be offered because the budget does not allow it this quarter.",
            "- A signing bonus will be offered because the budget allows it this quarter.",
        ),
        new_number=("with a salary of 96,000", "with a salary of 102,000"),
        new_name=(
            "Sophie calls Amara with the offer tomorrow.",
            "Sophie calls Amara with the offer tomorrow, copying Martin in recruiting.",
        ),
        grammar=(
            "Felix was solid but needed hints on caching.",
            "Felix were solid but need hint on caching.",
        ),
    ),
    case(
        "m06-hosting-vendor-negotiation",
        "meeting",
        "timestamped",
        "en",
        """
[00:00:03] Irene: Thanks for making time. We're here to finalise the renewal of our hosting contract. On our side it's me and Sam from infrastructure.
[00:00:12] Victor (Cloudlane): Happy to be here. I'm Victor, account manager at Cloudlane, and Mei handles our pricing.
[00:00:25] Irene: Our current spend is about 38,000 dollars a month. Your renewal quote came in at 41,500. We need to be at or below 36,000 to renew.
[00:00:48] Mei (Cloudlane): With a three-year commitment we can offer 35,200 a month. With one year, the best is 37,900.
[00:01:05] Sam: What about egress? That's where our bill keeps growing.
[00:01:10] Mei (Cloudlane): On the three-year deal we'd include 50 terabytes of egress a month. Beyond that it's 4 cents a gigabyte.
[00:01:28] Irene: And support? We need a named engineer.
[00:01:33] Victor (Cloudlane): A named support engineer is included on the three-year deal. I should be clear that we don't offer a price cap on future years beyond the three.
[00:01:50] Irene: Understood. We accept the three-year option at 35,200, subject to our legal review of the exit terms.
[00:02:02] Victor (Cloudlane): Great. I'll send the contract draft by Monday.
[00:02:08] Irene: Sam, please check the egress numbers against the last six months of usage before we sign.
[00:02:15] Sam: Will do, I'll have that by Wednesday.
[00:02:19] Irene: And I'll get legal to review the exit clause as soon as the draft arrives.
""",
        """
Irene and Sam (infrastructure) met Victor and Mei from Cloudlane to finalise the hosting renewal.

Current spend is about $38,000 a month and Cloudlane's renewal quote was $41,500; Irene needs $36,000 or less to renew. Cloudlane offered $35,200 a month on a three-year commitment, or $37,900 on one year. The three-year deal includes 50 TB of egress a month (then 4 cents per GB) and a named support engineer. Cloudlane does not offer a price cap for years beyond the three.

## Outcome
Irene accepted the three-year option at $35,200 a month, subject to legal review of the exit terms.

## Next steps
- Victor sends the contract draft by Monday.
- Sam checks the egress allowance against the last six months of usage by Wednesday.
- Irene has legal review the exit clause when the draft arrives.
""",
        owner_swap=("- Sam checks the egress allowance", "- Mei checks the egress allowance"),
        decision_reversal=(
            "Irene accepted the three-year option at $35,200 a month",
            "Irene turned down the three-year option at $35,200 a month and chose the one-year deal",
        ),
        contradiction=(
            "Cloudlane does not offer a price cap for years beyond the three.",
            "Cloudlane also offers a price cap for years beyond the three.",
        ),
        new_number=("(then 4 cents per GB)", "(then 9 cents per GB)"),
        new_name=(
            "Irene has legal review the exit clause",
            "Irene has Dorothy Vance in legal review the exit clause",
        ),
        grammar=(
            "Current spend is about $38,000 a month and Cloudlane's renewal quote was $41,500;",
            "Current spend are about $38,000 a month and Cloudlane renewal quote were $41,500;",
        ),
    ),
    case(
        "m07-one-on-one",
        "meeting",
        "speaker",
        "en",
        """
Karen: How are things going this week, Ibrahim?
Ibrahim: Mostly fine. The migration of the reporting jobs is about 70 percent done. I'm a bit stretched because I'm also covering the on-call rota for Li this week.
Karen: Thanks for covering. Let's talk about your goals. You said last time you wanted to lead a project.
Ibrahim: Yes. I'd like to lead the data-retention project that starts in April.
Karen: I think you're ready. I'll propose you as the lead at the planning meeting on the 3rd. I can't promise it yet, because the director decides, but I'll back you.
Ibrahim: That's great. The other thing is the conference in Lisbon in May. Is there budget?
Karen: There's no budget for international conferences this year, I'm afraid. That's a company-wide freeze. But you can take the two-day online course on data governance and I'll approve the 600 euros for it.
Ibrahim: Okay, that works.
Karen: For the migration, when do you think it's done?
Ibrahim: End of next week, if on-call stays quiet.
Karen: Let's say the 21st then. Can you write a short status note for the team on Friday?
Ibrahim: Yes. And can you ask Li whether she can take back on-call from Monday?
Karen: I'll ask her today.
""",
        """
1:1 between Karen and Ibrahim.

- **Work:** the reporting-jobs migration is about 70% done; Ibrahim is stretched because he is also covering Li's on-call this week. Target completion is the 21st.
- **Growth:** Ibrahim wants to lead the data-retention project starting in April. Karen will propose him as lead at the planning meeting on the 3rd but cannot promise it, as the director decides.
- **Training:** there is no budget for international conferences this year (company-wide freeze), so the Lisbon conference is out; Karen will approve €600 for a two-day online data governance course instead.

**Actions**
- Ibrahim writes a short status note for the team on Friday.
- Karen asks Li today whether she can take back on-call from Monday.
""",
        owner_swap=("- Karen asks Li today whether", "- Ibrahim asks Li today whether"),
        decision_reversal=(
            "Karen will propose him as lead at the planning meeting on the 3rd but cannot promise it, as the director decides.",
            "Karen has appointed him as lead, so it will be announced at the planning meeting on the 3rd.",
        ),
        contradiction=(
            "there is no budget for international conferences this year (company-wide freeze), so the Lisbon conference is out;",
            "there is budget for the Lisbon conference despite the company-wide freeze, and",
        ),
        new_number=("Karen will approve €600", "Karen will approve €900"),
        new_name=(
            "because he is also covering Li's on-call this week",
            "because he is also covering on-call for Li and Gareth this week",
        ),
        grammar=(
            "Ibrahim writes a short status note for the team on Friday.",
            "Ibrahim write a short status notes for the team on Friday.",
        ),
    ),
    case(
        "m08-sprint-planning",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

00:00:00.000 --> 00:00:06.000
Olivia: Sprint 31 planning. Capacity first. Tariq, what do we have?

00:00:06.500 --> 00:00:16.000
Tariq: Six engineers, but Wen is out for four days, so roughly 52 story points instead of our usual 60.

00:00:16.500 --> 00:00:26.000
Olivia: Okay. The top priority is the export-to-CSV feature that the enterprise customers asked for. That's 13 points.

00:00:26.500 --> 00:00:36.000
Wen: I'd split it. The basic export is 8 points; the scheduled exports are another 5 and could wait.

00:00:36.500 --> 00:00:44.000
Olivia: Let's do that. Basic export this sprint, scheduled exports next sprint.

00:00:44.500 --> 00:00:55.000
Tariq: The dark mode request keeps coming up. Are we taking it?

00:00:55.500 --> 00:01:05.000
Olivia: No, dark mode stays out of this sprint and the next. It's not on the quarter's roadmap.

00:01:05.500 --> 00:01:15.000
Dmitri: We also have 11 points of bug fixes carried over from sprint 30, including the login timeout bug.

00:01:15.500 --> 00:01:24.000
Olivia: Bugs go in first. Dmitri, you own the login timeout bug. Wen, you take the basic export when you're back on Thursday.

00:01:24.500 --> 00:01:32.000
Wen: Fine. Tariq, can you pair with me on the export's permissions part?

00:01:32.500 --> 00:01:36.000
Tariq: Sure.

00:01:36.500 --> 00:01:45.000
Olivia: Good. Sprint review is on the 28th. I'll send the sprint goal to the stakeholders today.
""",
        """
Sprint 31 planning (Olivia, Tariq, Wen, Dmitri).

Capacity is about 52 story points rather than the usual 60, because Wen is out for four days. The top priority, CSV export for enterprise customers (13 points), was split: the basic export (8 points) is in this sprint and scheduled exports (5 points) move to next sprint. The 11 points of bug fixes carried over from sprint 30, including the login timeout bug, go in first.

Dark mode will not be taken this sprint or next, as it is not on the quarter's roadmap.

Owners:
- Dmitri: the login timeout bug.
- Wen: the basic export from Thursday, pairing with Tariq on permissions.
- Olivia: send the sprint goal to stakeholders today.

The sprint review is on the 28th.
""",
        owner_swap=("- Dmitri: the login timeout bug.", "- Tariq: the login timeout bug."),
        decision_reversal=(
            "Dark mode will not be taken this sprint or next, as it is not on the quarter's roadmap.",
            "Dark mode will be taken this sprint, although it is not on the quarter's roadmap.",
        ),
        contradiction=(
            "the basic export (8 points) is in this sprint and scheduled exports (5 points) move to next sprint",
            "the basic export (8 points) and scheduled exports (5 points) are both in this sprint",
        ),
        new_number=("The sprint review is on the 28th.", "The sprint review is on the 26th."),
        new_name=(
            "The top priority, CSV export for enterprise customers (13 points)",
            "The top priority, CSV export requested by Halvorsen Bank and other enterprise customers (13 points)",
        ),
        grammar=(
            "Capacity is about 52 story points rather than the usual 60, because Wen is out for four days.",
            "Capacity are about 52 story points rather than the usual 60, because Wen are out for four day.",
        ),
    ),
]
