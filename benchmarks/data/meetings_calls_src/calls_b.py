# ruff: noqa: E501
"""Contact-centre calls, part B: claims, deliveries, energy, fraud, travel, subscriptions."""

from __future__ import annotations

from . import case

CASES = [
    case(
        "c09-water-damage-claim",
        "call",
        "timestamped",
        "en",
        """
[00:00:01] Agent (Nicola): Homeguard claims, Nicola speaking. How can I help?
[00:00:05] Customer (Mr Adebayo): A pipe burst in our upstairs bathroom on Saturday night. Water came through the kitchen ceiling.
[00:00:14] Agent (Nicola): I'm sorry. Is the water off now, and is the electricity safe?
[00:00:19] Customer (Mr Adebayo): A plumber came on Sunday and fixed the pipe. An electrician checked the kitchen circuits and said they're fine.
[00:00:30] Agent (Nicola): Good. Your buildings and contents policy covers escape of water, with a 350-pound excess for this type of claim. Please keep the plumber's invoice; the cost of tracing the leak is covered up to 5,000 pounds.
[00:00:48] Customer (Mr Adebayo): The invoice was 420 pounds.
[00:00:51] Agent (Nicola): That's fine, it'll be included. What's damaged?
[00:00:55] Customer (Mr Adebayo): The kitchen ceiling has partly come down, two cupboards are warped, and a washing machine stopped working.
[00:01:06] Agent (Nicola): I'll send a loss adjuster, because the ceiling damage is likely over 2,500. The earliest is Thursday morning. Please don't throw away the washing machine before the adjuster has seen it.
[00:01:20] Customer (Mr Adebayo): Can we stay in a hotel? The kitchen's unusable.
[00:01:24] Agent (Nicola): The policy covers alternative accommodation only if the home is uninhabitable. With one room out of use, that's not the case, so a hotel isn't covered. I can offer a 30-pound-a-day allowance for meals while the kitchen can't be used.
[00:01:42] Customer (Mr Adebayo): Okay, that helps.
[00:01:45] Agent (Nicola): Your claim number is HG-60427. I'll email you the adjuster's confirmation today. Please send photos of the damage and the plumber's invoice by reply.
""",
        """
Mr Adebayo called Homeguard after a pipe burst in his upstairs bathroom on Saturday night and water came through the kitchen ceiling. A plumber fixed the pipe on Sunday (invoice £420, which is included: leak tracing is covered up to £5,000) and an electrician found the kitchen circuits safe.

The buildings and contents policy covers escape of water with a £350 excess. The damage: the kitchen ceiling has partly come down, two cupboards are warped and the washing machine stopped working.

- A loss adjuster will visit on Thursday morning, as the ceiling damage is likely over £2,500. The washing machine must be kept until the adjuster has seen it.
- A hotel is not covered, because the home is not uninhabitable with one room out of use; instead there is a £30-a-day meals allowance while the kitchen is unusable.
- Nicola emails the adjuster's confirmation today (claim HG-60427); Mr Adebayo replies with photos of the damage and the plumber's invoice.
""",
        owner_swap=(
            "Nicola emails the adjuster's confirmation today (claim HG-60427); Mr Adebayo replies with photos",
            "Mr Adebayo emails the adjuster's confirmation today (claim HG-60427); Nicola replies with photos",
        ),
        decision_reversal=(
            "- A hotel is not covered, because the home is not uninhabitable with one room out of use; instead there is",
            "- A hotel is covered, because the home counts as uninhabitable with one room out of use, and there is also",
        ),
        contradiction=(
            "and an electrician found the kitchen circuits safe",
            "and an electrician found the kitchen circuits unsafe",
        ),
        new_number=("a £30-a-day meals allowance", "a £50-a-day meals allowance"),
        new_name=(
            "A plumber fixed the pipe on Sunday",
            "A plumber from Rapid Flow fixed the pipe on Sunday",
        ),
        grammar=(
            "The damage: the kitchen ceiling has partly come down, two cupboards are warped and the washing machine stopped working.",
            "The damage: the kitchen ceiling have partly came down, two cupboard is warped and the washing machine stop working.",
        ),
    ),
    case(
        "c10-damaged-sofa-delivery",
        "call",
        "roles",
        "en",
        """
Agent: Good morning, Oakhaus Furniture, Lena speaking.
Customer: Hello, my name is Brian Kaplan. My sofa was delivered yesterday and one of the legs is snapped and there's a tear in the fabric on the back.
Agent: I'm so sorry, Mr Kaplan. Could you give me your order number?
Customer: OH dash 2 2 9 1 7.
Agent: Thank you. That's the three-seater Linden sofa in green, 1,249 pounds. Did you sign for it as damaged?
Customer: No, the drivers left before I unwrapped it.
Agent: That's okay, you have 14 days to report damage and you're within that. I can offer two options: a full replacement, which is about four weeks because the green is made to order, or a repair visit plus a 20 percent refund.
Customer: Four weeks is a long time. How fast is the repair?
Agent: Our technician could come next Tuesday. They'd replace the leg and repair the fabric on site.
Customer: And the 20 percent is on the full price?
Agent: Yes, 249 pounds 80, back to your card within five working days after the repair.
Customer: I'll take the repair and the refund.
Agent: Great. The technician visit is booked for Tuesday between 8 and 1. We can't collect the old packaging, I'm afraid, that service ended in June.
Customer: Fine. Do I need to do anything?
Agent: Please email photos of the leg and the tear to our care team today so the technician brings the right parts. I'll send you the booking confirmation now.
""",
        """
Brian Kaplan called Oakhaus Furniture because the three-seater Linden sofa in green (order OH-22917, £1,249), delivered yesterday, has a snapped leg and a torn back. He had not signed for it as damaged because the drivers left before he unwrapped it, but he is within the 14-day reporting window.

Lena offered a full replacement, about four weeks away as the green is made to order, or a repair visit with a 20% refund. **He chose the repair and refund**: a technician replaces the leg and repairs the fabric on Tuesday between 8 and 1, and £249.80 goes back to his card within five working days of the repair. The old packaging cannot be collected, as that service ended in June.

Next: Mr Kaplan emails photos of the leg and tear to the care team today; Lena sends the booking confirmation now.
""",
        owner_swap=(
            "Lena sends the booking confirmation now",
            "Mr Kaplan sends the booking confirmation now",
        ),
        decision_reversal=(
            "**He chose the repair and refund**",
            "**He chose the full replacement**, not the repair and refund",
        ),
        contradiction=(
            "The old packaging cannot be collected, as that service ended in June.",
            "The old packaging will be collected, as that service continues.",
        ),
        new_number=(
            "within five working days of the repair",
            "within ten working days of the repair",
        ),
        new_name=(
            "Lena offered a full replacement",
            "Lena, after checking with the warehouse manager Stuart, offered a full replacement",
        ),
        grammar=(
            "He had not signed for it as damaged because the drivers left before he unwrapped it,",
            "He had not sign for it as damaged because the drivers leaved before he unwrap it,",
        ),
    ),
    case(
        "c11-energy-meter-dispute",
        "call",
        "roles",
        "en",
        """
Kemi (Agent): Brightwatt Energy, you're speaking with Kemi.
Mr Doherty (Customer): Hi. My electricity bill for the last quarter is 612 pounds. It's normally around 250. I think the meter reading is wrong.
Kemi (Agent): Let me check, Mr Doherty. The bill used an estimated reading of 48,930, because our meter reader couldn't get access in September. Do you have a reading today?
Mr Doherty (Customer): I'm looking at the meter now. It says 47,215.
Kemi (Agent): Thank you. That's about 1,700 units lower than our estimate, so you've been overcharged. I'll cancel the bill and reissue it with your reading.
Mr Doherty (Customer): How much will the new bill be?
Kemi (Agent): Roughly 268 pounds, but the exact figure will be on the new bill. It'll be emailed within three working days.
Mr Doherty (Customer): I already paid the 612 by direct debit.
Kemi (Agent): The difference will be refunded to your bank account once the new bill is issued, usually in five to seven working days. I can't refund it today, because the bill has to be reissued first.
Mr Doherty (Customer): Can you stop estimating my readings?
Kemi (Agent): Yes. I'll book a smart meter installation, which is free. The earliest slot is the 22nd, in the morning.
Mr Doherty (Customer): Perfect.
Kemi (Agent): I'll also add a note so that, until then, we'll ask you for a reading by text each quarter. Your complaint reference is BW-33018.
""",
        """
Mr Doherty called Brightwatt Energy about a quarterly electricity bill of £612, against a usual £250 or so.

Kemi found the bill used an estimated reading of 48,930, because the meter reader could not get access in September. His actual reading today is 47,215, about 1,700 units lower, so he was overcharged.

**What happens next**
- Kemi cancels the bill and reissues it with his reading: roughly £268, with the exact amount on the new bill, emailed within three working days.
- The difference from the £612 already paid by direct debit is refunded to his bank account after the new bill is issued, usually in five to seven working days; it cannot be refunded today.
- A free smart meter installation is booked for the morning of the 22nd. Until then, he will be asked for a reading by text each quarter.
- Complaint reference: BW-33018.
""",
        owner_swap=(
            "- Kemi cancels the bill and reissues it",
            "- Mr Doherty cancels the bill and reissues it",
        ),
        decision_reversal=(
            "- A free smart meter installation is booked for the morning of the 22nd.",
            "- A smart meter installation was not booked; estimates will continue.",
        ),
        contradiction=("it cannot be refunded today", "it is refunded today"),
        new_number=("His actual reading today is 47,215", "His actual reading today is 46,215"),
        new_name=(
            "because the meter reader could not get access in September",
            "because the meter reader, Alan Pike, could not get access in September",
        ),
        grammar=(
            "His actual reading today is 47,215, about 1,700 units lower, so he was overcharged.",
            "His actual reading today are 47,215, about 1,700 unit more lower, so he were overcharged.",
        ),
    ),
    case(
        "c12-card-fraud-report",
        "call",
        "speaker",
        "en",
        """
Oscar: Alderbank fraud team, Oscar speaking. Before we start, I'll never ask for your PIN or full card number.
Samira: Hi, I've just seen three payments on my debit card that I didn't make. They're to an online electronics shop.
Oscar: I'll help you with that. I've verified you through the app, Ms Haddad. I can see the three payments: 389, 412 and 97 pounds, all this morning between 6:10 and 6:25.
Samira: None of those are me. I still have my card with me.
Oscar: Okay. I'm cancelling the card now so it can't be used again. A new card will arrive in three to five working days, and you can use the digital card in the app straight away.
Samira: What about the money?
Oscar: I'm raising a fraud claim for all three payments, 898 pounds in total. We'll give you a temporary credit of the full amount within 24 hours while we investigate. The investigation usually takes up to 15 working days.
Samira: Will I need to do anything else?
Oscar: Please don't share any codes that we text you with anyone. We don't need a police report from you for card fraud; we report it ourselves.
Samira: Do I have to change my online banking password?
Oscar: It's not required, because your card details were used, not your login. But it's a good idea if you reuse passwords.
Samira: Okay. Thanks, Oscar.
Oscar: Your fraud reference is FR-7719-A. You'll get an email with it within the hour.
""",
        """
Samira Haddad called the Alderbank fraud team about three debit card payments she did not make, to an online electronics shop: £389, £412 and £97, all this morning between 6:10 and 6:25. She still has her card.

**Actions taken by Oscar**
- The card is cancelled; a new one arrives in three to five working days, and the digital card in the app can be used straight away.
- A fraud claim covers all three payments (£898 in total). A temporary credit of the full amount will be made within 24 hours while the investigation runs, usually up to 15 working days.
- Fraud reference FR-7719-A, emailed within the hour.

She does not need to file a police report; the bank reports the fraud itself. Changing her online banking password is not required, since her card details rather than her login were used, though advisable if she reuses passwords.
""",
        owner_swap=(
            "She does not need to file a police report; the bank reports the fraud itself.",
            "The bank does not need to file a police report; Samira reports the fraud herself.",
        ),
        decision_reversal=(
            "A fraud claim covers all three payments (£898 in total).",
            "A fraud claim covers only two of the three payments; the £97 payment is not claimed.",
        ),
        contradiction=(
            "Changing her online banking password is not required, since her card details rather than her login were used,",
            "Changing her online banking password is required, since her login rather than her card details was used,",
        ),
        new_number=("within 24 hours", "within 48 hours"),
        new_name=("to an online electronics shop", "to an online electronics shop, TechVault"),
        grammar=("She still has her card.", "She still have her cards."),
    ),
    case(
        "c13-flight-rebooking",
        "call",
        "webvtt",
        "en",
        """
WEBVTT

00:00:00.000 --> 00:00:06.000
Agent: Thank you for calling Skyway Airlines, this is Gemma. May I have your booking reference?

00:00:06.500 --> 00:00:12.000
Customer: It's K 7 R Q 2 M. The name is Daniel Ferreira.

00:00:12.500 --> 00:00:22.000
Agent: Thank you, Mr Ferreira. I see two passengers, you and Ana Ferreira, on flight SW 482 from Lisbon to Manchester on the 14th of June, departing 10:35.

00:00:22.500 --> 00:00:33.000
Customer: That's right. We need to change to the 16th. Our daughter's graduation was moved.

00:00:33.500 --> 00:00:45.000
Agent: Let me check. On the 16th there's the same flight at 10:35 with seats available. Your fare is the Light fare, which allows changes for a fee of 55 euros per person, plus any difference in fare.

00:00:45.500 --> 00:00:52.000
Customer: What's the difference?

00:00:52.500 --> 00:01:02.000
Agent: The fare on the 16th is 38 euros more per person. So in total 93 euros each, 186 euros for both of you.

00:01:02.500 --> 00:01:12.000
Customer: That's a lot. Is there anything cheaper? An evening flight?

00:01:12.500 --> 00:01:25.000
Agent: There's the 19:50 on the 16th. The fare difference there is only 12 euros, so 67 each, 134 in total. It arrives in Manchester at 22:20.

00:01:25.500 --> 00:01:33.000
Customer: Late, but fine. Let's do the evening one.

00:01:33.500 --> 00:01:43.000
Agent: Done. You're both on SW 488 on the 16th at 19:50. I've charged 134 euros to the card ending 4471.

00:01:43.500 --> 00:01:52.000
Customer: Do we keep our seats together? And our bag allowance?

00:01:52.500 --> 00:02:05.000
Agent: I've put you in 14A and 14B, together. The Light fare doesn't include a checked bag, and that doesn't change. Bags can be added in the app, but it's 35 euros per bag online, and more at the airport.

00:02:05.500 --> 00:02:12.000
Customer: We'll only bring cabin bags then. Can I get the fee waived, since it's a family event?

00:02:12.500 --> 00:02:22.000
Agent: I'm sorry, I can't waive the change fee on a Light fare. If you'd had the Flex fare, changes would be free.

00:02:22.500 --> 00:02:28.000
Customer: Understood. Will I get a new confirmation?

00:02:28.500 --> 00:02:38.000
Agent: Yes, the new itinerary is being emailed now, and the boarding passes will be available in the app 24 hours before departure.
""",
        """
Daniel Ferreira called Skyway Airlines (booking K7RQ2M) to move himself and Ana Ferreira from flight SW 482, Lisbon to Manchester on 14 June at 10:35, to the 16th, because their daughter's graduation was moved.

On the Light fare a change costs €55 per person plus the fare difference. The 10:35 flight on the 16th would have cost €93 each (€186 total), so he chose the **19:50 flight, SW 488, on the 16th**, arriving at 22:20: €67 each, **€134 in total**, charged to the card ending 4471. Gemma seated them together in 14A and 14B.

The Light fare still includes no checked bag; bags can be added in the app at €35 each (more at the airport), and they plan to take cabin bags only. Gemma could not waive the change fee on a Light fare; changes are free only on the Flex fare.

The new itinerary is being emailed, and boarding passes will be in the app 24 hours before departure.
""",
        owner_swap=(
            "Gemma seated them together in 14A and 14B.",
            "Daniel seated them together in 14A and 14B.",
        ),
        decision_reversal=(
            "so he chose the **19:50 flight, SW 488, on the 16th**",
            "so he turned down the **19:50 flight, SW 488, on the 16th** and kept the 10:35",
        ),
        contradiction=(
            "Gemma could not waive the change fee on a Light fare;",
            "Gemma waived the change fee as a goodwill gesture;",
        ),
        new_number=("arriving at 22:20", "arriving at 21:20"),
        new_name=(
            "Gemma seated them together",
            "Gemma and her colleague Nuno seated them together",
        ),
        grammar=(
            "The Light fare still includes no checked bag;",
            "The Light fare still include no checked bags are;",
        ),
    ),
    case(
        "c14-software-downgrade",
        "call",
        "roles",
        "en",
        """
Agent: Hi, this is Priyesh from Ledgerly customer success. I'm returning your call about your subscription.
Customer: Thanks. I'm Carla Mendes, I run a small bakery. We're on the Business plan at 49 dollars a month, but we only use invoicing and expenses now. I'd like to go down to Starter.
Agent: Sure. Starter is 19 dollars a month. It includes invoicing and expense tracking, but not payroll or multi-currency.
Customer: We stopped using payroll in March; our accountant does it now. We don't need multi-currency either.
Agent: Then Starter fits. One thing to know: Starter allows two users. You have four users right now.
Customer: Two is fine. Remove Jonas and Pilar; keep me and Rui.
Agent: Okay. Your Business plan is paid annually until the 31st of October. I can't refund the remaining months of the annual plan, but the downgrade will take effect at renewal, and you'll keep Business until then.
Customer: That's fine.
Agent: At renewal you'll be billed 19 a month, or 190 a year if you choose annual, which is two months free.
Customer: Annual, please.
Agent: Noted. I'll schedule the change to Starter annual at 190 dollars from the 1st of November and remove Jonas and Pilar on the same date. Your payroll history stays exportable for seven years.
Customer: Great. Can you send me a summary?
Agent: I'll email it within the hour. And if you need payroll again, you can upgrade at any time.
""",
        """
Carla Mendes, who runs a small bakery, asked Ledgerly to move from the Business plan ($49 a month) to Starter, since they only use invoicing and expenses; their accountant has done payroll since March and they do not need multi-currency. Priyesh confirmed that Starter ($19 a month) covers invoicing and expense tracking but not payroll or multi-currency, and allows two users.

**Agreed**
- Downgrade to Starter on annual billing at $190 a year from 1 November, when the annual Business plan (paid to 31 October) renews. The remaining months are not refunded; Business stays active until then.
- Users Jonas and Pilar are removed on the same date; Carla and Rui remain.
- Payroll history stays exportable for seven years, and she can upgrade again at any time.

Priyesh will email her a summary within the hour.
""",
        owner_swap=(
            "Priyesh will email her a summary within the hour.",
            "Carla will email Priyesh a summary within the hour.",
        ),
        decision_reversal=(
            "- Users Jonas and Pilar are removed on the same date; Carla and Rui remain.",
            "- Users Carla and Rui are removed on the same date; Jonas and Pilar remain.",
        ),
        contradiction=(
            "The remaining months are not refunded;",
            "The remaining months are refunded;",
        ),
        new_number=("at $190 a year", "at $210 a year"),
        new_name=(
            "their accountant has done payroll since March",
            "their accountant, Hollis & Grant, has done payroll since March",
        ),
        grammar=(
            "Priyesh confirmed that Starter ($19 a month) covers invoicing and expense tracking but not payroll or multi-currency, and allows two users.",
            "Priyesh confirm that Starter ($19 a month) cover invoicing and expense tracking but not payroll nor multi-currency, and allow two user.",
        ),
    ),
    case(
        "c15-prescription-delivery",
        "call",
        "timestamped",
        "en",
        """
[14:20:03] Agent (Hollie): MediDrop pharmacy, Hollie speaking. How can I help?
[14:20:07] Customer (Mr Singh): My father's prescription was supposed to arrive yesterday and it hasn't. It's his heart medication; he has two days of tablets left.
[14:20:19] Agent (Hollie): I understand it's urgent. Can I have his date of birth and postcode?
[14:20:24] Customer (Mr Singh): 3rd of May 1941, and it's LS6 2QT.
[14:20:33] Agent (Hollie): Thank you. I can see the order. It's been held because one item, the bisoprolol, was out of stock at our warehouse. The other two items are ready.
[14:20:48] Customer (Mr Singh): He can't go without the bisoprolol.
[14:20:52] Agent (Hollie): I've checked, and it's back in stock as of this morning. I'm sending the whole order by next-day tracked delivery, so it arrives tomorrow before 1pm, at no extra cost.
[14:21:08] Customer (Mr Singh): And if it doesn't arrive?
[14:21:11] Agent (Hollie): As a back-up, I can send an urgent supply request to a local pharmacy near him. The Boots on Otley Road can give him a seven-day emergency supply today if he brings his repeat slip.
[14:21:28] Customer (Mr Singh): I'll take him there this afternoon to be safe.
[14:21:32] Agent (Hollie): That's sensible. I've sent the request. There's no charge for the emergency supply because he has a prescription exemption.
[14:21:44] Customer (Mr Singh): Thank you. Will this happen again next month?
[14:21:47] Agent (Hollie): I'll add a flag to his account so our pharmacist checks stock five days before each dispatch and calls you if there's a problem.
""",
        """
Mr Singh called MediDrop because his father's heart medication, due yesterday, had not arrived, and his father has two days of tablets left.

Hollie found the order had been held because the bisoprolol was out of stock at the warehouse; the other two items were ready. It is back in stock as of this morning, so **the whole order goes by next-day tracked delivery, arriving tomorrow before 1pm at no extra cost**.

As a back-up, Hollie sent an urgent supply request to the Boots on Otley Road, which can give a seven-day emergency supply today if his father brings his repeat slip; Mr Singh will take him there this afternoon. The emergency supply is free because his father has a prescription exemption.

To prevent a repeat, Hollie is flagging the account so the pharmacist checks stock five days before each dispatch and calls if there is a problem.
""",
        owner_swap=(
            "Mr Singh will take him there this afternoon",
            "Hollie will take him there this afternoon",
        ),
        decision_reversal=(
            "**the whole order goes by next-day tracked delivery, arriving tomorrow before 1pm at no extra cost**",
            "**the two ready items go now and the bisoprolol follows separately next week**",
        ),
        contradiction=(
            "The emergency supply is free because his father has a prescription exemption.",
            "The emergency supply has to be paid for, as his father has no prescription exemption.",
        ),
        new_number=("a seven-day emergency supply", "a fourteen-day emergency supply"),
        new_name=("so the pharmacist checks stock", "so the pharmacist, Mr Okafor, checks stock"),
        grammar=(
            "Hollie found the order had been held because the bisoprolol was out of stock at the warehouse;",
            "Hollie found the order had being held because the bisoprolol were out of stocks at the warehouse;",
        ),
    ),
]
