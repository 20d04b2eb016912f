# ruff: noqa: E501
"""Two longer sources (about 3,000-4,000 characters): a steering committee and a support call."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "m25-steering-committee-erp",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

NOTE ERP programme steering committee, monthly

00:00:01.000 --> 00:00:09.000
<v Gillian Marsh>Good morning. This is the monthly steering committee for the ERP replacement. Six voting members are here, so we can take decisions. Three items: status, the go-live date, and the change request from the warehouse.

00:00:09.500 --> 00:00:27.000
<v Rohan Mehta>Status first. We are in the second test cycle. 1,840 test cases have run; 1,612 passed, 171 failed and 57 are blocked. Most of the failures are in purchasing and invoicing. Finance data migration passed its second dry run with 99.2 percent of balances reconciled automatically.

00:00:27.500 --> 00:00:35.000
<v Gillian Marsh>And the remaining 0.8 percent?

00:00:35.500 --> 00:00:48.000
<v Tessa Nowak>About 1,300 supplier balances, mostly small ones under 50 pounds. My team will reconcile them by hand before cutover. It's about four days of work.

00:00:48.500 --> 00:01:04.000
<v Rohan Mehta>Budget: we've spent 3.1 million pounds of the 4.4 million approved. The forecast to complete is 4.55 million, so we're 150,000 over, mainly extra contractor days for the integration work.

00:01:04.500 --> 00:01:18.000
<v Gillian Marsh>We'll come back to that. The go-live date. The plan says the 1st of September. Rohan, what's your recommendation?

00:01:18.500 --> 00:01:36.000
<v Rohan Mehta>I recommend we move go-live to the 3rd of November. With 171 failures open, a September go-live would mean going live during the quarter close, and the integration partner, Coralbridge, can't give us extra people in August.

00:01:36.500 --> 00:01:48.000
<v Marcus Bell>I'm against moving it. Every month we stay on the old system costs us about 40,000 in support fees, and the old vendor's support ends in December anyway.

00:01:48.500 --> 00:02:01.000
<v Tessa Nowak>November still leaves us a month of margin before December. And finance would much rather not cut over in the middle of the quarter close.

00:02:01.500 --> 00:02:10.000
<v Gillian Marsh>Let's vote on moving go-live to the 3rd of November. In favour?

00:02:10.500 --> 00:02:20.000
<v Gillian Marsh>Four: Rohan, Tessa, Amelia and me. Against: Marcus and Dariusz. The go-live moves to the 3rd of November, four votes to two.

00:02:20.500 --> 00:02:33.000
<v Dariusz Zielinski>For the minutes, I voted against because of the extra support cost, not because I doubt the test results.

00:02:33.500 --> 00:02:44.000
<v Gillian Marsh>Noted. On the overspend: the 150,000 comes from contingency. We are not going back to the board for more money at this stage.

00:02:44.500 --> 00:03:02.000
<v Gillian Marsh>Third item, the warehouse change request: barcode scanning of returns inside the new system. Amelia?

00:03:02.500 --> 00:03:18.000
<v Amelia Grant>The warehouse wants returns scanning at go-live. The estimate is 60 days of development. I think it's valuable, but it is not essential on day one; they can keep the current paper process for a few months.

00:03:18.500 --> 00:03:30.000
<v Gillian Marsh>Then the change request is not approved for go-live. It goes on the backlog for the first release after go-live. Any objection? None. Good.

00:03:30.500 --> 00:03:52.000
<v Gillian Marsh>Actions. Rohan: a revised plan for the 3rd of November, to the committee within two weeks. Tessa: the manual reconciliation plan for the supplier balances, by the next meeting. Marcus: check with the old vendor whether support can be extended month by month past December, in case we need it. Amelia: tell the warehouse about the decision on returns scanning this week.

00:03:52.500 --> 00:03:57.000
<v Marcus Bell>I'll call them tomorrow.

00:03:57.500 --> 00:04:03.000
<v Gillian Marsh>Thank you all. Next meeting on the 14th.
""",
        """
# ERP steering committee (monthly)

Six voting members attended, chaired by Gillian Marsh.

## Status
The second test cycle is under way: of 1,840 test cases, 1,612 passed, 171 failed (mostly purchasing and invoicing) and 57 are blocked. The finance data migration passed its second dry run with 99.2% of balances reconciled automatically; the remaining 1,300 or so supplier balances, mostly under £50, will be reconciled by hand before cutover (about four days of work). £3.1 million of the £4.4 million budget is spent, and the forecast to complete is £4.55 million, £150,000 over, mainly from extra contractor days on integration.

## Decisions
- **Go-live moves from 1 September to 3 November**, carried 4 to 2 (for: Rohan, Tessa, Amelia and Gillian; against: Marcus and Dariusz). Reasons: the open failures, a September go-live would fall in the quarter close, and Coralbridge cannot add people in August. Marcus objected that each month on the old system costs about £40,000 in support fees; Dariusz asked the minutes to record that he voted against because of that cost, not the test results.
- The £150,000 overspend comes from contingency; the committee is not asking the board for more money.
- The warehouse's change request for returns scanning (60 days of development) is not approved for go-live; it goes on the backlog for the first release after go-live.

## Actions
- Rohan: revised plan for 3 November, to the committee within two weeks.
- Tessa: manual reconciliation plan for the supplier balances, by the next meeting.
- Marcus: ask the old vendor whether support can be extended month by month past December.
- Amelia: tell the warehouse about the returns scanning decision this week.

Next meeting: the 14th.
""",
        owner_swap=("- Tessa: manual reconciliation plan", "- Amelia: manual reconciliation plan"),
        decision_reversal=(
            "- The warehouse's change request for returns scanning (60 days of development) is not approved for go-live; it goes on the backlog for the first release after go-live.",
            "- The warehouse's change request for returns scanning (60 days of development) is approved for go-live.",
        ),
        contradiction=(
            "The finance data migration passed its second dry run",
            "The finance data migration failed its second dry run",
        ),
        new_number=(
            "171 failed (mostly purchasing and invoicing) and 57 are blocked",
            "171 failed (mostly purchasing and invoicing) and 75 are blocked",
        ),
        new_name=(
            "- Marcus: ask the old vendor whether support can be extended",
            "- Marcus: ask the old vendor, Sandvik Systems, whether support can be extended",
        ),
        grammar=("The second test cycle is under way:", "The second test cycle are under the way:"),
    ),
    case(
        "c16-internet-outage-complaint",
        "call",
        "roles",
        "en",
        """
Dana (Agent): Good afternoon, Lumen Fibre customer care, you're speaking with Dana. Can I take your name?
Mr Reyes (Customer): Eduardo Reyes. I've had no internet since Friday and this is the third time I've called.
Dana (Agent): I'm really sorry, Mr Reyes. Let me pull up your account. Can you confirm your postcode?
Mr Reyes (Customer): BS3 4PL.
Dana (Agent): Thank you. I can see the previous two calls, on Friday and Sunday. There's a known fault in your area: a cable was cut during roadworks on Friday morning. About 600 homes are affected.
Mr Reyes (Customer): Nobody told me that. On Sunday they said it was my router and made me reset it twice.
Dana (Agent): I can see that, and I apologise. The area fault was only linked to your account on Monday, which shouldn't have taken so long.
Mr Reyes (Customer): When will it be fixed? I work from home and I've been using my phone's data.
Dana (Agent): The repair crew is on site now. The current estimate is tomorrow, Wednesday, by 6pm. I can't promise that time, because they're still splicing the new cable, but that's the latest update I have.
Mr Reyes (Customer): And what about compensation? That's five days without service by tomorrow.
Dana (Agent): Under the automatic compensation scheme you get 9 pounds 33 for each calendar day without service after the second working day. That will be applied automatically to your next bill once the fault is closed. I'll also add a goodwill credit of 20 pounds for the wrong advice you were given on Sunday.
Mr Reyes (Customer): What about my phone data? I had to buy an extra 30 gigabytes for 15 pounds.
Dana (Agent): I'm sorry, I can't refund charges from another provider. That's why I've added the goodwill credit, though I know it doesn't cover everything.
Mr Reyes (Customer): Can you send me a mobile broadband dongle until it's fixed?
Dana (Agent): Yes. We have 4G dongles for customers in a long outage. I'll send one by next-day courier, so you'll have it tomorrow morning, and there's no charge for it. Please send it back in the prepaid bag within 14 days after your service is restored.
Mr Reyes (Customer): Tomorrow morning, and the line may be fixed by tomorrow evening...
Dana (Agent): I understand. If the repair slips, you'll have it for as long as you need. I'd still recommend it.
Mr Reyes (Customer): Fine, send it.
Dana (Agent): Done. I'll also set up text updates on the repair, so you get a message whenever the estimate changes. And I've logged a formal complaint about the advice on Sunday; the complaints team will contact you within five working days. Your complaint reference is LF-2210-88.
Mr Reyes (Customer): Okay. Is there anything I need to do when it comes back?
Dana (Agent): Just restart the router once the text says the fault is fixed. If it's still not working an hour after that, call us and quote the reference, and we'll book an engineer visit at no cost.
Mr Reyes (Customer): Alright. Thank you, Dana, you've been more helpful than the others.
Dana (Agent): Thank you for your patience, Mr Reyes.
""",
        """
Eduardo Reyes called Lumen Fibre for the third time about having no internet since Friday. The agent, Dana, found a known area fault: a cable cut during roadworks on Friday morning, affecting about 600 homes. On Sunday he had been wrongly told it was his router and asked to reset it twice; the area fault was only linked to his account on Monday, and Dana apologised for the delay.

The repair crew is on site and the current estimate is Wednesday (tomorrow) by 6pm, though Dana could not promise that time because the new cable is still being spliced.

**What was agreed**
- Automatic compensation of £9.33 for each calendar day without service after the second working day, applied to his next bill once the fault is closed.
- A £20 goodwill credit for the wrong advice on Sunday. The £15 he spent on 30 GB of extra phone data cannot be refunded, as it was charged by another provider.
- A free 4G dongle by next-day courier, arriving tomorrow morning, to be returned in the prepaid bag within 14 days of the service being restored.
- Text updates whenever the repair estimate changes.
- A formal complaint about Sunday's advice (reference LF-2210-88); the complaints team will contact him within five working days.

When the text says the fault is fixed, he restarts the router; if it still does not work an hour later, he calls back with the reference and an engineer visit is booked at no cost.
""",
        owner_swap=("he restarts the router", "Dana restarts the router"),
        decision_reversal=(
            "- A free 4G dongle by next-day courier, arriving tomorrow morning, to be returned in the prepaid bag within 14 days of the service being restored.",
            "- He declined the free 4G dongle, as the line may be fixed the same day it would arrive.",
        ),
        contradiction=(
            "The £15 he spent on 30 GB of extra phone data cannot be refunded, as it was charged by another provider.",
            "The £15 he spent on 30 GB of extra phone data will be refunded as well.",
        ),
        new_number=("affecting about 600 homes", "affecting about 900 homes"),
        new_name=("The repair crew is on site", "The repair crew from Openreach is on site"),
        grammar=(
            "The repair crew is on site and the current estimate is Wednesday (tomorrow) by 6pm,",
            "The repair crew are on site and the current estimate be Wednesday (tomorrow) by 6pm,",
        ),
    ),
]
