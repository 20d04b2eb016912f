# ruff: noqa: E501
"""Meetings, part B: committees, campaigns, security, co-ops, roadmaps, panels, 1:1s."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "m09-pta-committee-vote",
        "meeting",
        "speaker",
        "en",
        """
Helen (chair): Welcome to the parents' association committee. We have nine members here tonight. First item: how to spend the 4,800 pounds raised at the summer fair.
Gwen (treasurer): The fair raised 4,800 after costs. We also have 1,150 left over from last year, so 5,950 in total.
Helen (chair): There are two proposals. Option A is new playground equipment for the infants, quoted at 4,200. Option B is a set of 30 tablets for the library, quoted at 5,400.
Mohammed: I'd go for the playground. The current climbing frame was marked unsafe by the council inspector in June.
Tanya: The tablets would help the reading scheme, but 5,400 leaves us almost nothing in reserve.
Helen (chair): Let's vote. Hands up for option A, the playground.
Helen (chair): That's seven. Option B?
Helen (chair): Two, Tanya and Rob. So option A is approved, seven to two.
Gwen (treasurer): That leaves 1,750 in reserve.
Helen (chair): Second item: the Christmas disco. The school has said we can't use the main hall this year because of the roof work, so it will be in the dining hall on the 13th of December.
Rob: Can we sell tickets online this time?
Helen (chair): Yes. Rob, could you set up the online ticketing? Mohammed, please get two more quotes for the playground so we can confirm the supplier by the October meeting.
Mohammed: Happy to.
Helen (chair): And I'll write to the head teacher to confirm the dining hall booking.
""",
        """
## Parents' association committee (9 members present)

**Summer fair money.** The fair raised £4,800 after costs; with £1,150 left from last year, £5,950 is available. The committee voted **7 to 2** for option A, new infant playground equipment quoted at £4,200, over option B, 30 library tablets quoted at £5,400 (Tanya and Rob voted for B). Mohammed noted that the current climbing frame was marked unsafe by the council inspector in June. £1,750 stays in reserve.

**Christmas disco.** The main hall cannot be used this year because of roof work, so the disco will be in the dining hall on 13 December, with tickets sold online.

**Actions**
- Rob: set up online ticketing.
- Mohammed: get two more playground quotes so the supplier can be confirmed at the October meeting.
- Helen: write to the head teacher to confirm the dining hall booking.
""",
        owner_swap=("- Rob: set up online ticketing.", "- Tanya: set up online ticketing."),
        decision_reversal=(
            "The committee voted **7 to 2** for option A",
            "The committee voted **unanimously** for option A",
        ),
        contradiction=(
            "The main hall cannot be used this year because of roof work, so the disco will be in the dining hall",
            "The main hall can be used this year despite the roof work, so the disco will not need the dining hall and takes place",
        ),
        new_number=("£1,750 stays in reserve.", "£2,150 stays in reserve."),
        new_name=(
            "- Helen: write to the head teacher to confirm",
            "- Helen: write to the head teacher, Mrs Ferguson, to confirm",
        ),
        grammar=(
            "Mohammed noted that the current climbing frame was marked unsafe by the council inspector in June.",
            "Mohammed noted that the current climbing frame were mark unsafe by the council inspector on June.",
        ),
    ),
    case(
        "m10-campaign-planning",
        "meeting",
        "timestamped",
        "en",
        """
[09:00:12] Lucy: Okay, spring campaign for the meal-kit launch. We have a budget of 120,000 pounds and the launch date is the 2nd of April.
[09:00:30] Ben: Paid social is where we got the best return last year. I'd put 55,000 there.
[09:00:44] Aisha: I'd like 30,000 for influencer partnerships. We've got interest from three food creators already.
[09:01:02] Lucy: And the rest?
[09:01:05] Ben: 20,000 for search and 15,000 for the sampling events in Manchester and Bristol.
[09:01:21] Lucy: That adds up to 120. Fine. What about TV? Someone in sales asked.
[09:01:28] Ben: TV is out. The cheapest regional slot was 90,000 on its own.
[09:01:36] Lucy: Agreed, no TV this time. One more thing: we won't use discount codes above 25 percent. Finance was clear that deeper discounts hurt the margin too much.
[09:01:55] Aisha: The creators want to give their followers 40 percent off the first box.
[09:02:03] Lucy: Then we offer them 25 and a free dessert add-on instead. If they say no, we move on.
[09:02:14] Lucy: Owners: Aisha runs the creator partnerships and sends contracts by the 10th of March. Ben builds the paid social plan and shares it by next Wednesday. I'll book the sampling venues.
[09:02:31] Ben: Should we do a soft launch first?
[09:02:34] Lucy: No soft launch. We go straight to the 2nd.
""",
        """
The spring campaign for the meal-kit launch has a **£120,000** budget and launches on 2 April.

**Budget split:** paid social £55,000 (best return last year), influencer partnerships £30,000, search £20,000, and £15,000 for sampling events in Manchester and Bristol.

**Decisions**
- No TV: the cheapest regional slot alone was £90,000.
- Discount codes are capped at 25%, as Finance said deeper discounts hurt margin. The creators asked for 40% off the first box; they will be offered 25% plus a free dessert add-on instead.
- No soft launch; the campaign goes straight to 2 April.

**Owners**
- Aisha: creator partnerships, contracts sent by 10 March.
- Ben: paid social plan, shared by next Wednesday.
- Lucy: book the sampling venues.
""",
        owner_swap=(
            "- Aisha: creator partnerships, contracts sent by 10 March.",
            "- Ben: creator partnerships, contracts sent by 10 March.",
        ),
        decision_reversal=(
            "- No soft launch; the campaign goes straight to 2 April.",
            "- A soft launch will come first, before the full launch on 2 April.",
        ),
        contradiction=(
            "they will be offered 25% plus a free dessert add-on instead",
            "they will get the 40% they asked for plus a free dessert add-on",
        ),
        new_number=("search £20,000", "search £25,000"),
        new_name=(
            "influencer partnerships £30,000",
            "influencer partnerships £30,000 (led by the agency Brightfork)",
        ),
        grammar=(
            "paid social £55,000 (best return last year)",
            "paid social £55,000 (the most best return of last years)",
        ),
    ),
    case(
        "m11-phishing-incident-review",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

NOTE Security incident review, recorded with consent

00:00:02.000 --> 00:00:10.000
<v Zoe>This is the post-incident review for the phishing campaign on the 6th. Andre, what happened?

00:00:10.500 --> 00:00:24.000
<v Andre>An email pretending to be from our payroll provider reached 212 staff. Nineteen people clicked the link and four entered their passwords on the fake page.

00:00:24.500 --> 00:00:34.000
<v Zoe>Were any accounts actually used by the attacker?

00:00:34.500 --> 00:00:47.000
<v Andre>One. The attacker logged into Mark Reilly's mailbox for about twenty minutes. We see no sign that any data left the mailbox, and no other systems were accessed.

00:00:47.500 --> 00:00:58.000
<v Farah>The other three accounts had multi-factor authentication, which blocked the login. Mark's account was one of the 31 still exempt from MFA.

00:00:58.500 --> 00:01:09.000
<v Zoe>Then the main decision is obvious: MFA exemptions end. All 31 accounts must be enrolled by the end of the month, no exceptions.

00:01:09.500 --> 00:01:17.000
<v Farah>Agreed. Do we report this to the regulator?

00:01:17.500 --> 00:01:30.000
<v Zoe>Legal's view is that it's not reportable, because no personal data was accessed. We'll document the reasoning but we are not filing a report.

00:01:30.500 --> 00:01:42.000
<v Zoe>Actions: Farah enrols the remaining accounts and sends me a weekly count. Andre adds the payroll provider's domain to the lookalike-domain block list today and runs a phishing training session next month.

00:01:42.500 --> 00:01:45.000
<v Andre>On it.
""",
        """
Post-incident review of the phishing campaign on the 6th (Zoe, Andre, Farah).

A fake payroll-provider email reached 212 staff; 19 clicked the link and 4 entered their passwords. Three of those accounts were protected by multi-factor authentication, which blocked the logins. The fourth, Mark Reilly's, was among the 31 accounts exempt from MFA: the attacker was in his mailbox for about twenty minutes. There is no sign that data left the mailbox or that other systems were accessed.

Decisions:
1. MFA exemptions end: all 31 accounts must be enrolled by the end of the month, with no exceptions.
2. No report will be filed with the regulator, since legal's view is that no personal data was accessed; the reasoning will be documented.

Actions:
- Farah enrols the remaining accounts and sends Zoe a weekly count.
- Andre adds the provider's lookalike domain to the block list today and runs phishing training next month.
""",
        owner_swap=(
            "- Farah enrols the remaining accounts and sends Zoe",
            "- Andre enrols the remaining accounts and sends Zoe",
        ),
        decision_reversal=(
            "2. No report will be filed with the regulator, since legal's view is that no personal data was accessed;",
            "2. A report will be filed with the regulator, since legal's view is that personal data was accessed;",
        ),
        contradiction=(
            "There is no sign that data left the mailbox or that other systems were accessed.",
            "Data did leave the mailbox, and other systems were accessed as well.",
        ),
        new_number=("19 clicked the link", "27 clicked the link"),
        new_name=(
            "A fake payroll-provider email reached 212 staff;",
            "A fake email posing as the payroll provider PayServ reached 212 staff;",
        ),
        grammar=(
            "Three of those accounts were protected by multi-factor authentication, which blocked the logins.",
            "Three of those account was protect by multi-factor authentication, which block the logins.",
        ),
    ),
    case(
        "m12-coop-roof-vote",
        "meeting",
        "speaker",
        "en",
        """
Anita: This is the special general meeting of the Elm Court housing co-op. We have 23 of our 30 households present, so we're quorate. The motion is to replace the roof of block B this summer.
Kwame: The surveyor's report says the roof has five to seven years left with patch repairs, but the leaks over flats 14 and 15 are getting worse each winter.
Anita: We have two quotes: Hartwell Roofing at 86,000 and a second firm at 79,500. The committee recommends Hartwell because they can start in June and offer a 20-year guarantee.
Doreen: Where does the money come from?
Kwame: 60,000 from the sinking fund and the rest as a one-off levy. With Hartwell that's 26,000 across 30 households, so about 867 pounds each.
Doreen: That's a lot for some of our older members. Can it be paid in instalments?
Anita: Yes, the committee agreed members can pay over twelve months with no interest.
Anita: Let's vote. For replacing the roof with Hartwell this summer?
Anita: Eighteen for. Against? Four. Abstentions? One. The motion passes 18 to 4 with one abstention.
Doreen: And flats 14 and 15 in the meantime?
Anita: Kwame, can you get the patch repair done over those flats before the work starts? And I'll send the levy letters out by the end of the month.
Kwame: Yes, I'll book it this week.
""",
        """
Elm Court housing co-op, special general meeting: 23 of 30 households present (quorate).

The motion to replace the block B roof this summer with Hartwell Roofing (£86,000) **passed 18 to 4, with one abstention**. The committee recommended Hartwell over a cheaper quote of £79,500 because it can start in June and gives a 20-year guarantee. The surveyor says the roof has five to seven years left with patch repairs, but leaks over flats 14 and 15 worsen every winter.

Funding: £60,000 from the sinking fund and a one-off levy for the remaining £26,000, about £867 per household, payable over twelve months with no interest.

Actions:
- Kwame: book a patch repair over flats 14 and 15 before the work starts.
- Anita: send the levy letters by the end of the month.
""",
        owner_swap=("- Kwame: book a patch repair", "- Doreen: book a patch repair"),
        decision_reversal=(
            "**passed 18 to 4, with one abstention**",
            "**failed, 4 to 18, with one abstention**",
        ),
        contradiction=(
            "payable over twelve months with no interest",
            "payable in one lump sum, as instalments were not agreed",
        ),
        new_number=("about £867 per household", "about £1,067 per household"),
        new_name=(
            "The surveyor says the roof has five to seven years left",
            "The surveyor, Philip Grange, says the roof has five to seven years left",
        ),
        grammar=(
            "The committee recommended Hartwell over a cheaper quote of £79,500 because it can start in June and gives a 20-year guarantee.",
            "The committee recommend Hartwell over a more cheap quote of £79,500 because it can starts in June and give a 20-year guarantee.",
        ),
    ),
    case(
        "m13-roadmap-planning",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

1
00:00:01.200 --> 00:00:08.400
<v Rachel Adeyemi>Let's lock the H2 roadmap for the mobile app. We have three candidate themes.

2
00:00:08.900 --> 00:00:21.000
<v Rachel Adeyemi>Offline mode, a redesign of onboarding, and the partner API. Engineering says we can do two of the three with the current team of nine.

3
00:00:21.500 --> 00:00:33.000
<v Stefan Weber>Offline mode is the top request in app-store reviews, mentioned in about 1,300 reviews since January. It's also the biggest, roughly four months.

4
00:00:33.500 --> 00:00:44.000
<v Julia Santos>Onboarding is smaller, about six weeks, and our funnel shows 38 percent of new users drop off before finishing setup.

5
00:00:44.500 --> 00:00:55.000
<v Stefan Weber>The partner API has one committed customer, but sales thinks it could unlock two more contracts.

6
00:00:55.500 --> 00:01:07.000
<v Rachel Adeyemi>I propose offline mode and onboarding for H2, and the partner API is deferred to next year. Stefan, Julia, are you both okay with that?

7
00:01:07.500 --> 00:01:13.000
<v Julia Santos>Yes.

8
00:01:13.500 --> 00:01:22.000
<v Stefan Weber>Yes, but we need to tell the committed partner that it won't arrive this year.

9
00:01:22.500 --> 00:01:34.000
<v Rachel Adeyemi>Right. I'll call them myself this week. Julia, please write the onboarding brief by the 15th. Stefan, get an estimate for offline mode broken down by platform before the kickoff on the 22nd.

10
00:01:34.500 --> 00:01:39.000
<v Stefan Weber>Will do. We're not hiring extra contractors for this, correct?

11
00:01:39.500 --> 00:01:45.000
<v Rachel Adeyemi>Correct, no contractors. We stay with the nine.
""",
        """
### H2 mobile roadmap

Rachel Adeyemi, Stefan Weber and Julia Santos chose two of three candidate themes, as the team of nine can only deliver two:

- **Offline mode** (in): the top app-store request, in about 1,300 reviews since January; roughly four months of work.
- **Onboarding redesign** (in): about six weeks; 38% of new users drop off before finishing setup.
- **Partner API** (deferred to next year): one committed customer, with sales hoping for two more contracts.

No contractors will be hired; the team stays at nine.

### Actions
- Rachel calls the committed partner this week to say the API will not arrive this year.
- Julia writes the onboarding brief by the 15th.
- Stefan estimates offline mode per platform before the kickoff on the 22nd.
""",
        owner_swap=(
            "- Julia writes the onboarding brief by the 15th.",
            "- Stefan writes the onboarding brief by the 15th.",
        ),
        decision_reversal=(
            "- **Partner API** (deferred to next year)",
            "- **Partner API** (in, replacing the onboarding work)",
        ),
        contradiction=(
            "No contractors will be hired; the team stays at nine.",
            "Contractors will be hired to add to the team of nine.",
        ),
        new_number=("38% of new users drop off", "45% of new users drop off"),
        new_name=(
            "one committed customer, with sales hoping for two more contracts",
            "one committed customer, Nordlink, with sales hoping for two more contracts",
        ),
        grammar=(
            "Stefan estimates offline mode per platform before the kickoff on the 22nd.",
            "Stefan estimate offline mode per platforms before the kickoff in the 22nd.",
        ),
    ),
    case(
        "m14-data-engineer-panel",
        "meeting",
        "timestamped",
        "en",
        """
[00:00:05] Marta: Debrief for the data engineer role. Two candidates made the final round: Priyanka and Oleg. Let's hear from each interviewer.
[00:00:16] Jamal: Technical round: Priyanka's SQL was excellent; she optimised the slow query from 40 seconds to under 2. Oleg got to a working answer but didn't look at the query plan.
[00:00:39] Noor: Pipeline design: Oleg was stronger there. He has run Airflow in production for four years. Priyanka has used it, but only for about a year.
[00:00:58] Marta: Culture and collaboration?
[00:01:01] Greta: Both good. Priyanka asked thoughtful questions about on-call. Oleg said he can't do on-call at weekends for family reasons.
[00:01:17] Marta: On-call at weekends is part of this role, one weekend in six. That's a hard requirement.
[00:01:25] Noor: Then I'd lean to Priyanka, and we can train her on Airflow.
[00:01:31] Marta: Let's decide. Who supports an offer to Priyanka?
[00:01:36] Marta: Jamal, Noor and Greta, and me. That's all four. Offer to Priyanka. We're not making an offer to Oleg, but I'd like to keep his CV for the platform role next quarter.
[00:01:52] Greta: Salary?
[00:01:54] Marta: The band is 70 to 80 thousand. We'll offer 76, and a start date in the first week of June if she can.
[00:02:06] Marta: Noor, please put together a 30-day Airflow onboarding plan. Jamal, can you send me your written notes today? I'll send the offer to Priyanka through recruiting on Monday.
[00:02:20] Jamal: Sure.
""",
        """
Debrief for the data engineer role, two finalists (Priyanka and Oleg), interviewers Marta, Jamal, Noor and Greta.

Priyanka's SQL was excellent: she brought a slow query from 40 seconds to under 2. Oleg reached a working answer without checking the query plan, but was stronger on pipeline design, with four years of running Airflow in production against Priyanka's one year. Oleg said he cannot do weekend on-call, which the role requires (one weekend in six).

**Decision:** all four interviewers support an offer to Priyanka, at 76 thousand (band 70-80), starting in the first week of June if possible. No offer to Oleg, but his CV is kept for next quarter's platform role.

**Actions**
- Noor: a 30-day Airflow onboarding plan.
- Jamal: send written notes to Marta today.
- Marta: send the offer through recruiting on Monday.
""",
        owner_swap=(
            "- Noor: a 30-day Airflow onboarding plan.",
            "- Greta: a 30-day Airflow onboarding plan.",
        ),
        decision_reversal=(
            "all four interviewers support an offer to Priyanka",
            "three of the four interviewers support an offer to Priyanka",
        ),
        contradiction=(
            "Oleg said he cannot do weekend on-call, which the role requires (one weekend in six).",
            "Oleg said he is happy to do weekend on-call, which the role requires (one weekend in six).",
        ),
        new_number=("starting in the first week of June", "starting in the first week of July"),
        new_name=(
            "- Marta: send the offer through recruiting on Monday.",
            "- Marta: send the offer through Claire in recruiting on Monday.",
        ),
        grammar=(
            "Priyanka's SQL was excellent: she brought a slow query from 40 seconds to under 2.",
            "Priyanka SQL were excellent: she bringed a slow query from 40 seconds to under 2.",
        ),
    ),
    case(
        "m15-catering-vendor",
        "meeting",
        "speaker",
        "en",
        """
Paul: Thanks for coming in, Elena. As you know, we're reviewing the staff canteen contract, which ends on the 31st of August.
Elena (Greenplate): Thank you. We'd very much like to continue. Our proposal is a two-year renewal at 7.40 pounds per meal, up from 6.90.
Paul: That's a seven percent increase. Our budget assumes no more than 7.10.
Elena (Greenplate): Food costs have gone up a lot. The lowest I can go is 7.20 if you commit to two years and at least 450 meals a day.
Naomi: We average about 480 meals a day, so the minimum isn't a problem. But we also want more vegetarian options; staff survey said so.
Elena (Greenplate): We can make two of the four daily mains vegetarian at no extra cost.
Paul: And the coffee bar? Could that be included?
Elena (Greenplate): No, I'm sorry, we can't include the coffee bar in the meal price. That would be a separate contract.
Paul: Okay. Naomi and I need to check with finance, but I think 7.20 with the 450 minimum and the vegetarian mains is acceptable in principle. We're not agreeing to the coffee bar today.
Elena (Greenplate): Understood. I'll send a revised proposal by Friday.
Naomi: Please include the allergen labelling we discussed last time.
Elena (Greenplate): Of course.
Paul: Naomi, can you take it to finance when it comes in? I'll draft the renewal letter.
""",
        """
Paul and Naomi met Elena from Greenplate about the staff canteen contract, which ends on 31 August.

Greenplate proposed a two-year renewal at £7.40 per meal (up from £6.90); the budget allows at most £7.10. Elena's lowest offer is £7.20 per meal for a two-year commitment with a minimum of 450 meals a day, which is not a problem at the current average of about 480. Two of the four daily mains will be vegetarian at no extra cost. The coffee bar cannot be included in the meal price and would need a separate contract.

**Outcome:** Paul considers £7.20 with the 450-meal minimum and vegetarian mains acceptable in principle, pending finance. The coffee bar was not agreed.

**Next steps**
- Elena sends a revised proposal, with the allergen labelling, by Friday.
- Naomi takes it to finance.
- Paul drafts the renewal letter.
""",
        owner_swap=("- Naomi takes it to finance.", "- Paul takes it to finance."),
        decision_reversal=(
            "The coffee bar was not agreed.",
            "The coffee bar was agreed as part of the deal.",
        ),
        contradiction=(
            "The coffee bar cannot be included in the meal price and would need a separate contract.",
            "The coffee bar can be included in the meal price with no separate contract.",
        ),
        new_number=("the current average of about 480", "the current average of about 520"),
        new_name=(
            "Paul and Naomi met Elena from Greenplate",
            "Paul, Naomi and Derek met Elena from Greenplate",
        ),
        grammar=(
            "Two of the four daily mains will be vegetarian at no extra cost.",
            "Two of the four daily main is going be vegetarian at no extras cost.",
        ),
    ),
    case(
        "m16-promotion-one-on-one",
        "meeting",
        "webvtt",
        "en",
        """
WEBVTT

00:00:00.500 --> 00:00:08.000
<v Tom>Hi Aylin. I wanted to talk about the promotion cycle before the calibration meeting next week.

00:00:08.500 --> 00:00:15.000
<v Aylin>Sure. I was hoping to be put forward for senior designer this time.

00:00:15.500 --> 00:00:31.000
<v Tom>I am putting you forward. Your work on the checkout redesign lifted conversion by 4.2 percent, and the design system you started is now used by five teams. That's strong evidence.

00:00:31.500 --> 00:00:38.000
<v Aylin>Thank you. Is there anything that could hold it back?

00:00:38.500 --> 00:00:52.000
<v Tom>Honestly, the feedback on stakeholder communication. Two product managers said they found out about design changes late. Calibration will ask about that.

00:00:52.500 --> 00:01:00.000
<v Aylin>That's fair. I could start a weekly design update for the PMs.

00:01:00.500 --> 00:01:12.000
<v Tom>Good idea, start it this week so there's something to point to. I can't guarantee the outcome; the calibration panel decides, not me.

00:01:12.500 --> 00:01:18.000
<v Aylin>Understood. What about the salary side?

00:01:18.500 --> 00:01:30.000
<v Tom>If it goes through, the raise takes effect on the 1st of April. I don't know the amount yet and I won't guess.

00:01:30.500 --> 00:01:40.000
<v Tom>One action for me: I'll write the promotion case and share it with you by Monday so you can correct anything.

00:01:40.500 --> 00:01:45.000
<v Aylin>And I'll send you the conversion analysis so you can attach it.
""",
        """
Tom and Aylin discussed the promotion cycle ahead of next week's calibration meeting.

Tom **is putting Aylin forward for senior designer**, citing her checkout redesign, which lifted conversion by 4.2%, and the design system she started, now used by five teams. The likely concern at calibration is stakeholder communication: two product managers learned of design changes late. Aylin will start a weekly design update for the PMs this week. Tom cannot guarantee the outcome, since the calibration panel decides. If approved, the raise takes effect on 1 April; the amount is not known yet.

**Actions**
- Tom writes the promotion case and shares it with Aylin by Monday.
- Aylin sends Tom the conversion analysis to attach.
""",
        owner_swap=(
            "- Tom writes the promotion case and shares it with Aylin by Monday.",
            "- Aylin writes the promotion case and shares it with Tom by Monday.",
        ),
        decision_reversal=(
            "Tom **is putting Aylin forward for senior designer**, citing her",
            "Tom **is not putting Aylin forward for senior designer** this cycle, despite her",
        ),
        contradiction=(
            "If approved, the raise takes effect on 1 April; the amount is not known yet.",
            "If approved, the raise takes effect on 1 April, and Tom confirmed the amount.",
        ),
        new_number=("now used by five teams", "now used by eight teams"),
        new_name=(
            "two product managers learned of design changes late",
            "two product managers, including Owen Hale, learned of design changes late",
        ),
        grammar=(
            "Aylin will start a weekly design update for the PMs this week.",
            "Aylin will starting a weekly design updates for the PMs this weeks.",
        ),
    ),
]
