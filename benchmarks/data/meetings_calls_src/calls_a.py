# ruff: noqa: E501
"""Contact-centre calls, part A: billing, cancellations, tech support, claims, deliveries."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "c01-broadband-billing-dispute",
        "call",
        "roles",
        "en",
        """
Agent: Thank you for calling Meridian Broadband, my name is Chris. How can I help today?
Customer: Hi Chris, it's Valerie Dunn. My bill this month is 78 pounds and it's usually 42. I haven't changed anything.
Agent: Let me have a look, Ms Dunn. Can you confirm the first line of your address?
Customer: 14 Carrow Lane.
Agent: Thank you. I can see the difference. Your 18-month discount ended on the 3rd of this month, so the price went to the standard rate of 64 pounds. There's also a one-off charge of 14 pounds for a missed engineer appointment on the 9th.
Customer: The engineer never came! I waited in all morning.
Agent: I can see a note from the engineer saying there was no access. I'm sorry about that. Since you say you were home, I'll remove the 14-pound charge.
Customer: Thank you. And the 64? I can't afford that.
Agent: I can offer a new 12-month contract at 45 pounds a month on the same speed. I can't put you back on 42, I'm afraid; that offer isn't available any more.
Customer: 45 is okay. Let's do that.
Agent: Done. The new price starts from your next bill. The 14 pounds will show as a credit on the same bill. This month's bill stays as it is apart from that.
Customer: So I still pay the 64 this month?
Agent: Yes, the 64 for this month, and the 14 comes back next month. I'll send you an email confirming the new contract today.
Customer: Alright. Thanks, Chris.
""",
        """
Valerie Dunn called Meridian Broadband about a bill of £78 instead of her usual £42. The agent, Chris, explained that her 18-month discount ended on the 3rd, moving her to the standard £64, and that a £14 charge had been added for a missed engineer appointment on the 9th. She said the engineer never came; although the engineer noted no access, Chris removed the £14 charge because she was at home.

**Outcome**
- New 12-month contract at £45 a month, same speed, from the next bill. Returning to £42 was not possible, as that offer no longer exists.
- She pays the £64 this month; the £14 appears as a credit on the next bill.
- Chris will email confirmation of the new contract today.
""",
        owner_swap=(
            "- Chris will email confirmation of the new contract today.",
            "- Valerie will email confirmation of the new contract today.",
        ),
        decision_reversal=(
            "- New 12-month contract at £45 a month, same speed, from the next bill.",
            "- She declined the new 12-month contract at £45 a month and stays on the standard rate.",
        ),
        contradiction=(
            "Returning to £42 was not possible, as that offer no longer exists.",
            "Chris also put her back on the old £42 offer, which is still available.",
        ),
        new_number=("a £14 charge had been added", "a £19 charge had been added"),
        new_name=(
            "The agent, Chris, explained",
            "The agent, Chris, and his supervisor Dean explained",
        ),
        grammar=(
            "She pays the £64 this month; the £14 appears as a credit on the next bill.",
            "She pay the £64 this months; the £14 appear as a credit in the next bill.",
        ),
    ),
    case(
        "c02-gym-cancellation",
        "call",
        "roles",
        "en",
        """
Josh (Agent): Good afternoon, FitZone memberships, Josh speaking.
Mrs Patel (Customer): Hello, I'd like to cancel my membership. I'm moving to Glasgow at the end of the month.
Josh (Agent): Sorry to hear you're leaving us. Can I take your membership number?
Mrs Patel (Customer): It's 88-41-907.
Josh (Agent): Thanks, Mrs Patel. You're on the annual plan that started in February, so normally there's a fee of 60 pounds to leave early. But relocation more than 25 miles from a club counts as an exception, and we don't have a club in Glasgow.
Mrs Patel (Customer): So no fee?
Josh (Agent): No fee, as long as you send proof of your new address within 30 days. A utility bill or tenancy agreement is fine.
Mrs Patel (Customer): Okay. When does it end?
Josh (Agent): We need one month's notice, so your last payment of 34.99 will be taken on the 1st of next month and your access ends on the 30th.
Mrs Patel (Customer): Can I freeze it instead, in case I come back?
Josh (Agent): Freezing is only for up to three months and for medical reasons, so I can't offer that here. I can, however, waive the joining fee if you ever rejoin within a year.
Mrs Patel (Customer): That's kind. Let's cancel then.
Josh (Agent): It's done. You'll get a cancellation email with a reference, and the upload link for the proof of address.
Mrs Patel (Customer): Thank you, Josh.
""",
        """
Mrs Patel called FitZone to cancel her membership (number 88-41-907) because she is moving to Glasgow at the end of the month.

Josh, the agent, explained that leaving the annual plan early normally costs £60, but moving more than 25 miles from a club is an exception and there is no club in Glasgow. The fee is waived provided she sends proof of her new address, such as a utility bill or tenancy agreement, within 30 days. With one month's notice, the last payment of £34.99 is taken on the 1st of next month and access ends on the 30th. A freeze was not possible: freezes are only for medical reasons, for up to three months. Josh offered to waive the joining fee if she rejoins within a year.

The membership was cancelled. She will receive a cancellation email with a reference and a link to upload the proof of address.
""",
        owner_swap=(
            "Josh offered to waive the joining fee",
            "Mrs Patel offered to waive the joining fee",
        ),
        decision_reversal=(
            "The membership was cancelled.",
            "In the end the membership was frozen rather than cancelled.",
        ),
        contradiction=(
            "A freeze was not possible: freezes are only for medical reasons, for up to three months.",
            "A freeze was also offered, for up to three months, as relocation qualifies.",
        ),
        new_number=("the last payment of £34.99", "the last payment of £39.99"),
        new_name=(
            "Josh, the agent, explained",
            "Josh, the agent, after checking with his manager Kelly, explained",
        ),
        grammar=(
            "Josh, the agent, explained that leaving the annual plan early normally costs £60,",
            "Josh, the agent, explain that leaving of the annual plan early normally cost £60,",
        ),
    ),
    case(
        "c03-laptop-tech-support",
        "call",
        "roles",
        "en",
        """
Agent: Welcome to Novabook support, you're speaking with Farid. What's the problem today?
Customer: My laptop won't start. When I press the power button the light comes on for a second and then nothing.
Agent: Sorry about that. Can you read me the serial number from the sticker underneath?
Customer: It's N B 7 7 2 0 4 1 Q.
Agent: Thank you. That's a Novabook Air 14, bought in October last year, so it's still under the two-year warranty. Let's try a hard reset. Unplug the charger, then hold the power button down for 30 seconds.
Customer: Okay... done.
Agent: Now plug the charger back in and press power once.
Customer: The light is on... and it's still black. Nothing.
Agent: Is the charging light on the cable orange or white?
Customer: There's no light on the cable at all.
Agent: Then it could be the charger rather than the laptop. Do you have another USB-C charger of at least 65 watts?
Customer: My phone charger is only 20 watts.
Agent: That won't be enough. I'll send you a replacement charger free of charge, because it's under warranty. It should arrive in three to five working days. If the laptop still doesn't start with the new charger, call us back with case number 5531902 and we'll arrange a courier repair.
Customer: Can't you just send a courier now?
Agent: I'm afraid not; we need to rule out the charger first. But I've noted everything on the case so you won't have to repeat it.
Customer: Fine, thanks.
""",
        """
A customer called Novabook support because the laptop would not start: the power light came on briefly, then nothing. Farid identified it from the serial number NB772041Q as a Novabook Air 14 bought last October and still under the two-year warranty.

A hard reset (charger unplugged, power button held for 30 seconds) did not help, and the charger cable showed no light, so the charger may be at fault. The customer's 20 W phone charger is not enough; at least 65 W over USB-C is needed.

**Next steps**
- Farid is sending a free replacement charger under warranty, arriving in three to five working days.
- If the laptop still does not start, the customer calls back with case number 5531902 to arrange a courier repair.
- No courier was sent now, because the charger has to be ruled out first.
""",
        owner_swap=(
            "- Farid is sending a free replacement charger",
            "- The customer is sending a free replacement charger",
        ),
        decision_reversal=(
            "- No courier was sent now, because the charger has to be ruled out first.",
            "- A courier repair was arranged straight away, without waiting to rule out the charger.",
        ),
        contradiction=(
            "and still under the two-year warranty",
            "and no longer under the two-year warranty",
        ),
        new_number=("at least 65 W over USB-C is needed", "at least 90 W over USB-C is needed"),
        new_name=(
            "Farid identified it from the serial number NB772041Q as a Novabook Air 14",
            "Farid identified it from the serial number NB772041Q as a Novabook Air 14, which the customer bought from Currys",
        ),
        grammar=(
            "The customer's 20 W phone charger is not enough;",
            "The customer 20 W phone charger are not enough for;",
        ),
    ),
    case(
        "c04-car-insurance-claim",
        "call",
        "roles",
        "en",
        """
Rita (Agent): Hello, Harbourside Insurance claims, Rita speaking. Are you safe and is anyone injured?
Mr Kowalski (Customer): I'm fine, nobody's hurt. Someone reversed into my car in a supermarket car park this morning.
Rita (Agent): I'm glad no one is hurt. Can I have your policy number?
Mr Kowalski (Customer): H S 4 4 8 1 2 0.
Rita (Agent): Thank you, Mr Kowalski. I see a comprehensive policy on a blue Skoda Octavia with a 250-pound excess. Did you get the other driver's details?
Mr Kowalski (Customer): Yes, her name is Lorna Briggs, and I took a photo of her number plate and her insurance card. She admitted it was her fault.
Rita (Agent): That's very helpful. If her insurer accepts liability, you won't have to pay the excess, and it won't affect your no-claims discount.
Mr Kowalski (Customer): Can I drive the car?
Rita (Agent): Is the rear light working?
Mr Kowalski (Customer): It's smashed.
Rita (Agent): Then please don't drive it at night until it's fixed. I'll book you into our approved garage in Didsbury; they can see it on Monday at 9.
Mr Kowalski (Customer): Do I get a courtesy car?
Rita (Agent): Yes, the garage provides a small courtesy car while yours is repaired. We don't cover a hire car of the same size, though; that's not in your policy.
Mr Kowalski (Customer): Okay.
Rita (Agent): Please upload the photos through the app today. Your claim reference is CL-20931. I'll contact Ms Briggs's insurer this afternoon.
""",
        """
Mr Kowalski reported to Harbourside Insurance that another driver, Lorna Briggs, reversed into his car in a supermarket car park this morning; no one was injured and she admitted fault. He has her plate and insurance details on photos.

His comprehensive policy (HS448120) covers a blue Skoda Octavia with a £250 excess. If her insurer accepts liability he will not pay the excess and his no-claims discount is unaffected. The rear light is smashed, so he should not drive at night until it is fixed.

**Arranged:** a Monday 9:00 appointment at the approved garage in Didsbury, with a small courtesy car during the repair. A hire car of the same size is not covered by his policy.

**Next steps:** Mr Kowalski uploads the photos through the app today (claim reference CL-20931); Rita contacts Ms Briggs's insurer this afternoon.
""",
        owner_swap=(
            "Rita contacts Ms Briggs's insurer this afternoon",
            "Mr Kowalski contacts Ms Briggs's insurer this afternoon",
        ),
        decision_reversal=(
            "If her insurer accepts liability he will not pay the excess and his no-claims discount is unaffected.",
            "Even if her insurer accepts liability he will pay the excess and his no-claims discount is affected.",
        ),
        contradiction=(
            "A hire car of the same size is not covered by his policy.",
            "A hire car of the same size is also covered by his policy.",
        ),
        new_number=("with a £250 excess", "with a £350 excess"),
        new_name=(
            "at the approved garage in Didsbury",
            "at Bramley Motors, the approved garage in Didsbury",
        ),
        grammar=(
            "The rear light is smashed, so he should not drive at night until it is fixed.",
            "The rear light are smash, so he should not drives at night until it be fixed.",
        ),
    ),
    case(
        "c05-missing-parcel",
        "call",
        "speaker",
        "en",
        """
Leanne: Parcelway customer service, this is Leanne.
Gary: Hi, I'm calling about a parcel that says delivered but I never got it. The tracking number is P W 3 3 0 9 1 7 8 2.
Leanne: Thanks. I can see it was marked delivered on Tuesday at 16:42, left in a safe place: the porch.
Gary: I don't have a porch. I live in a flat.
Leanne: I see. The driver's photo shows a blue door with the number 21. What's your address?
Gary: 12 Ashby Court. My door is grey.
Leanne: Then it was delivered to the wrong address. I'm sorry. I'll open an investigation with the depot and the driver will be asked to go back to number 21 to collect it tomorrow.
Gary: And if they can't get it back? It's a 180-pound pair of headphones.
Leanne: If it isn't recovered within five working days, the sender will be told to send a replacement or refund you. We can't refund you ourselves, because the contract is between you and the retailer, but we'll confirm the misdelivery to them in writing.
Gary: Okay. Can I be told what happens?
Leanne: Yes, you'll get a text after the driver's visit. Your investigation number is INV-55812. I'll also add a note to stop safe-place deliveries to your address.
Gary: Thanks, Leanne.
""",
        """
Gary called Parcelway about parcel PW33091782, shown as delivered on Tuesday at 16:42 to a porch. He lives in a flat at 12 Ashby Court with a grey door; the driver's photo shows a blue door numbered 21, so Leanne confirmed it was misdelivered.

- An investigation (INV-55812) has been opened with the depot; the driver will go back to number 21 tomorrow to collect the parcel, £180 headphones.
- If it is not recovered within five working days, the sender will be told to replace it or refund him. Parcelway cannot refund him directly, since his contract is with the retailer, but will confirm the misdelivery to the retailer in writing.
- Gary will get a text after the driver's visit.
- Leanne is adding a note to stop safe-place deliveries to his address.
""",
        owner_swap=(
            "- Leanne is adding a note to stop safe-place deliveries",
            "- Gary is adding a note to stop safe-place deliveries",
        ),
        decision_reversal=(
            "so Leanne confirmed it was misdelivered",
            "so Leanne concluded it was delivered correctly",
        ),
        contradiction=(
            "Parcelway cannot refund him directly, since his contract is with the retailer,",
            "Parcelway will refund him directly, even though his contract is with the retailer,",
        ),
        new_number=("within five working days", "within ten working days"),
        new_name=(
            "the sender will be told to replace it or refund him",
            "the sender, SoundHaus, will be told to replace it or refund him",
        ),
        grammar=(
            "Gary will get a text after the driver's visit.",
            "Gary will gets a text after the driver visit.",
        ),
    ),
    case(
        "c06-roaming-charges",
        "call",
        "timestamped",
        "en",
        """
[00:00:02] Agent (Marisol): Thanks for calling Tellus Mobile, I'm Marisol. How can I help?
[00:00:07] Customer (Dev Anand): I've been charged 112 dollars in roaming on my last bill. I was in Canada for a week, but I bought the travel pass before I left.
[00:00:21] Agent (Marisol): Let me check. Yes, I can see the 10-dollar-a-day travel pass was added on the 4th. Your trip started on the 2nd?
[00:00:33] Customer (Dev Anand): Yes, I flew on the 2nd.
[00:00:36] Agent (Marisol): So the first two days were charged at the pay-as-you-go rate: that's 87 dollars of the 112. The remaining 25 is data over the pass's 2-gigabyte daily limit on the 6th.
[00:00:55] Customer (Dev Anand): I didn't know about a daily limit.
[00:00:58] Agent (Marisol): It's in the pass terms, but I understand. As a one-time courtesy I can credit the 87 dollars for the first two days, since you did buy a pass for the trip. I can't credit the 25 dollars of extra data, I'm sorry.
[00:01:16] Customer (Dev Anand): That's fair enough, thank you.
[00:01:19] Agent (Marisol): The credit will appear on your next bill, in about two weeks. I'll also turn on usage alerts at 80 percent of any pass, so you get a text before you hit the limit.
[00:01:32] Customer (Dev Anand): Great. Can I pay the rest of the bill in two instalments?
[00:01:36] Agent (Marisol): Yes, I've split the remaining balance into two payments, on the 15th and the 30th.
""",
        """
Dev Anand called Tellus Mobile about $112 of roaming charges from a week in Canada, despite buying a travel pass.

Marisol found that the $10-a-day pass was added on the 4th but the trip began on the 2nd: the first two days were billed at pay-as-you-go rates ($87), and the other $25 was data beyond the pass's 2 GB daily limit on the 6th.

**Resolution**
- One-time courtesy credit of $87 for the first two days, on the next bill in about two weeks.
- The $25 of extra data is not credited.
- Marisol switched on usage alerts at 80% of any pass.
- The rest of the bill is split into two payments, on the 15th and the 30th.
""",
        owner_swap=("- Marisol switched on usage alerts", "- Dev switched on usage alerts"),
        decision_reversal=(
            "- The rest of the bill is split into two payments, on the 15th and the 30th.",
            "- Splitting the rest of the bill into two payments was refused.",
        ),
        contradiction=(
            "- The $25 of extra data is not credited.",
            "- The $25 of extra data is credited as well.",
        ),
        new_number=("on the next bill in about two weeks", "on the next bill in about four weeks"),
        new_name=("Marisol found that", "Marisol and her team lead, Curtis, found that"),
        grammar=(
            "the first two days were billed at pay-as-you-go rates ($87)",
            "the first two day was bill at pay-as-you-go rates ($87)",
        ),
    ),
    case(
        "c07-streaming-cancellation",
        "call",
        "webvtt",
        "en",
        """
WEBVTT

00:00:00.000 --> 00:00:05.000
<v Agent>Hi, you're through to StreamBox. My name's Tyler. How can I help?

00:00:05.500 --> 00:00:13.000
<v Customer>Hi Tyler, I'm Harriet Moss. I want to cancel my subscription. It's gone up to 17.99 a month and I barely use it.

00:00:13.500 --> 00:00:21.000
<v Agent>I understand. Before I do that, can I offer you our basic plan? It's 6.99 a month, with adverts and HD instead of 4K.

00:00:21.500 --> 00:00:28.000
<v Customer>I don't watch in 4K anyway. Would I keep my profiles and watch history?

00:00:28.500 --> 00:00:35.000
<v Agent>Yes, everything stays. The change would start at your next billing date, the 19th.

00:00:35.500 --> 00:00:42.000
<v Customer>Can I get the basic plan without adverts?

00:00:42.500 --> 00:00:51.000
<v Agent>The ad-free option is 10.99. I can't give you ad-free at the 6.99 price, sorry.

00:00:51.500 --> 00:00:57.000
<v Customer>Then 6.99 with adverts. Let's switch instead of cancelling.

00:00:57.500 --> 00:01:07.000
<v Agent>Done. You're on basic with adverts from the 19th. You'll still have the premium plan until then. You'll get a confirmation email now.

00:01:07.500 --> 00:01:14.000
<v Customer>And I can cancel any time?

00:01:14.500 --> 00:01:22.000
<v Agent>Yes, there's no minimum term on basic. You can cancel in the app at any time, with no fee.
""",
        """
Harriet Moss called StreamBox to cancel because her subscription had risen to 17.99 a month and she barely uses it. Tyler offered the basic plan at 6.99 a month, with adverts and HD rather than 4K; her profiles and watch history are kept. An ad-free basic plan costs 10.99 and could not be had at the 6.99 price.

**Outcome:** she did not cancel. She switches to basic with adverts from her next billing date, the 19th, keeping the premium plan until then. A confirmation email is sent now. Basic has no minimum term and can be cancelled in the app at any time with no fee.
""",
        owner_swap=(
            "Tyler offered the basic plan at 6.99 a month",
            "Harriet offered the basic plan at 6.99 a month",
        ),
        decision_reversal=(
            "**Outcome:** she did not cancel. She switches to basic",
            "**Outcome:** she cancelled, turning down the switch to basic",
        ),
        contradiction=(
            "An ad-free basic plan costs 10.99 and could not be had at the 6.99 price.",
            "Tyler gave her the ad-free basic plan at the 6.99 price.",
        ),
        new_number=("from her next billing date, the 19th", "from her next billing date, the 21st"),
        new_name=(
            "Harriet Moss called StreamBox to cancel",
            "Harriet Moss called StreamBox to cancel, after switching to Netflix,",
        ),
        grammar=(
            "her profiles and watch history are kept",
            "her profile and watch history is keeped",
        ),
    ),
    case(
        "c08-router-wifi-support",
        "call",
        "roles",
        "en",
        """
Agent: Hello, Fibrenet technical support, this is Amir.
Customer: Hi Amir. Since yesterday the wifi in my house keeps dropping, but the cable to my desktop works fine.
Agent: Okay, so the line itself is fine and it's the wireless side. What router do you have? It should say on the label.
Customer: Fibrenet Hub 3.
Agent: Thanks. I can see from here that your hub is on channel 6 in the 2.4 gigahertz band, and there are 14 other networks near you on the same channel. That would cause drop-outs.
Customer: Can you change it?
Agent: Yes, I'm moving it to channel 11 and turning on band steering, so devices that support 5 gigahertz will use that. The hub will restart; it takes about two minutes.
Customer: Okay, it's back. My laptop's connected.
Agent: Good. Your hub's firmware is also two versions behind. The update installs overnight automatically, so you don't need to do anything.
Customer: My signal upstairs has always been weak. Can you send me a booster?
Agent: The mesh booster costs 5 pounds a month on top of your plan; it's not free on your package. I can't add it without your agreement.
Customer: Let me think about that. I'll call back if the channel change doesn't fix it.
Agent: Of course. If the drop-outs continue over the next 48 hours, call us with reference FN-77310 and we'll send an engineer at no cost.
Customer: Great, thanks.
""",
        """
A Fibrenet customer reported that since yesterday their home wifi keeps dropping, while the cable to their desktop works. Amir found the Fibrenet Hub 3 on channel 6 in the 2.4 GHz band, shared with 14 nearby networks, and moved it to channel 11 with band steering on, so 5 GHz devices use that band. After a two-minute restart the laptop reconnected. The hub's firmware, two versions behind, will update automatically overnight.

The customer asked for a booster for the weak signal upstairs. The mesh booster is not free on this package: it costs £5 a month, and it was not added; the customer will think about it.

If drop-outs continue over the next 48 hours, the customer calls back with reference FN-77310 and Fibrenet will send an engineer at no cost.
""",
        owner_swap=(
            "Amir found the Fibrenet Hub 3 on channel 6",
            "The customer found the Fibrenet Hub 3 on channel 6",
        ),
        decision_reversal=(
            "and it was not added; the customer will think about it.",
            "and the customer agreed to add it.",
        ),
        contradiction=(
            "The hub's firmware, two versions behind, will update automatically overnight.",
            "The hub's firmware, two versions behind, will not update automatically; the customer must install it.",
        ),
        new_number=("shared with 14 nearby networks", "shared with 21 nearby networks"),
        new_name=(
            "Fibrenet will send an engineer at no cost",
            "Fibrenet will send its engineer, Bethany Cole, at no cost",
        ),
        grammar=(
            "After a two-minute restart the laptop reconnected.",
            "After a two-minutes restart the laptop reconnect.",
        ),
    ),
]
