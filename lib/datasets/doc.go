// Package datasets converts public conversation data sets into the data
// folder `linemem reproduce --data DIR` reads (sources/*.json JSON-by-date
// exports, questions.jsonl, evidence.jsonl, qrels.txt, summaries.jsonl),
// plus noanswer.jsonl (the questions whose answer is not in the history, for
// abstention), keys.jsonl (each message's ID in the data set's own terms,
// LoCoMo's dia_id), native.jsonl (LoCoMo: every qa item with its category
// and its evidence IDs verbatim, for LoCoMo's own scoring) and dataset.json (the original's name, sha256 and size, the
// converter and ConverterVersion, and the counts behind every decision
// below). A conversion is a pure function of its input file and options:
// converting twice gives the same bytes.
//
// Imports: floor 0 and, on floor 1, lib/chunking, lib/datafolder (the data
// folder layout and its one writer, WriteFiles), lib/gold, lib/lineexport,
// lib/questions, lib/represent (FirstRunes) and lib/trec.
//
// # Common rules
//
// Every source is written as a JSON-by-date export, one date per line, every
// message of type "text" with its time to the second, then read back with
// lineexport.ReadJSON and chunked with chunking.DefaultOptions — exactly what
// ingest does, so chunk IDs match the ones `linemem reproduce` computes.
// Evidence items quote each evidence turn by source, date, time, sender and
// its first TextPrefixRunes runes (role answer), and qrels.txt is
// gold.Resolve's output over those messages and chunks: relevance 2 for every
// chunk holding an evidence turn. A question left without a relevance-2
// chunk (its turns trimmed by the 5,000-character render limit, or no
// evidence ID naming a turn) is dropped from questions.jsonl and listed in
// dataset.json with the reason; nothing is dropped silently. Where a data
// set has no summaries, a chunk's summary is its LeadSummary (the first
// messages, 200–500 runes): an extractive stand-in, not a summary, so the
// summary representations there measure a truncation of the chunk.
// Split gives one folder per user (the sources that user is in and the
// questions asked of them); the chunk IDs are those of the pooled folder.
//
// # Untrusted input
//
// A data-set file is read as untrusted: an ID that becomes a file or folder
// name (a LoCoMo sample_id, a RealPersonaChat interlocutor ID) must be a
// plain name (non-empty UTF-8 of at most MaxIDBytes bytes without white
// space, control characters, '/' or '\', not beginning with '.'), and two
// IDs giving one file or folder name are refused; so are invalid UTF-8, data
// after the closing ] of a LoCoMo file, a key repeated in one object, a
// LoCoMo dia_id repeated under another spelling or naming another session,
// and a RealPersonaChat utterance ID repeated in its dialogue. Every error is
// an *inputerr.Error at the line of the offending value.
//
// # LoCoMo (Maharana et al., ACL 2024; CC BY-NC 4.0)
//
//   - One source per conversation, "<sample_id>.json"; the user is the
//     conversation; its two speakers (speaker_a, speaker_b) are the senders.
//   - Turn i (0-based) of session N is at session_N_date_time +
//     i × LoCoMoTurnStep (one minute). Sessions are days or weeks apart, so
//     under the 180-minute session rule every LoCoMo session stays one
//     session (dataset.json counts sessions closer than 180 minutes to the
//     previous one: 0 in locomo10.json). A session_N_date_time without a
//     session_N (turn list) is skipped and counted.
//   - A turn with an image keeps its text and appends " [image: CAPTION]"
//     with the data set's blip_caption (the image itself is not available
//     offline); the turn stays a text message, so a question about the
//     picture can be answered from the caption.
//   - Questions come from qa; qid "<sample_id>-qNNN" numbers all qa items of
//     the sample from 1. Evidence IDs "D<s>:<t>" are read leniently (several
//     IDs in one string split at ';', ',' or space; "D:11:26" and leading
//     zeros are read as D11:26); IDs that name no turn are counted
//     (evidence_ids_unresolved) and a question left with none is dropped.
//   - Categories are mapped to the paper's types from the data, by
//     DeriveCategoryType over CategoryStats (in dataset.json): on
//     locomo10.json category 1 has evidence in two or more sessions for 95 %
//     of its questions → aggregate; 80 % of category 2 start with "when", "who" or "where" →
//     named_entity (a date asked for); categories 3 and 4 → contextual;
//     category 5 carries an adversarial_answer on all its items → the
//     no-answer set (noanswer.jsonl, type "adversarial"), never retrieval
//     questions.
//   - summaries.jsonl: LoCoMo's session_summary, written (with an LLM) by the
//     data set's authors, one per session: a chunk gets the summary of the
//     session of its first message (every chunk lies inside one session).
//
// # RealPersonaChat (Yamashita et al., 2023; CC BY-SA 4.0)
//
//   - Users: the RPCOptions.Users participants with the most dialogues (ties:
//     smaller ID). A user's history is every dialogue they took part in; each
//     dialogue goes into the source of its pair of interlocutors
//     ("AA-AB.json", IDs in byte order), so a history is one source per
//     partner, the shape of a LINE history with many chats. Senders are the
//     interlocutor IDs.
//   - Times are the utterances' own timestamps cut to the second. "NaT" takes
//     the nearest earlier time of the dialogue (or the first one of it);
//     within a source, dialogues are ordered by their first time and a time
//     earlier than the one before it is moved forward to it (both counted).
//     A dialogue repeated byte for byte in the file is read once (counted).
//   - Questions: known-item simulation in the manner of Azzopardi, de Rijke &
//     Balog (2007), "Building simulated queries for known-item topics", SIGIR:
//     a target is chosen, then a query is built from it. Targets are the
//     user's own utterances of KnownItemMinRunes–KnownItemMaxRunes runes with
//     at least KnownItemMinTerms ContentTerms whose rarest term occurs in at
//     most KnownItemMaxDF utterances of the history, taken in the order of
//     HashID("known-item", user, source, key) (so the choice is fixed by the
//     data, no random state), at most one question per dialogue. Of every
//     five questions two are named_entity (the KnownItemQueryTerms rarest
//     terms: "X、Y、Zについて話したのはどの会話？"), two contextual (the
//     TrimmedSpan of the target: "「…」と話したときのこと") and one aggregate:
//     a term the user said in 2–AggregateMaxDialogues dialogues and at most
//     AggregateMaxDF utterances, every such utterance gold, the query the term
//     with the rarest other term of its first two utterances. Gold is the
//     chunks holding the target utterances. Such questions are lexical by
//     construction: they favour BM25 over dense retrieval and over
//     summaries, and say nothing about paraphrased questions a person asks.
//
// # LongMemEval (Wu et al., ICLR 2025)
//
// The conversion builds LongMemEval's own retrieval setting (its
// src/retrieval/run_retrieval.py at session granularity), not the paper's
// chunks:
//
//   - One source per haystack session, "session-<id>.json", holding the
//     session's user turns only (LongMemEval indexes user turns); turn i of
//     the session (counting both roles) is at its haystack_date + i minutes,
//     keyed by LongMemEval's turn ID "<id>_<i+1>". Info.Chunking is
//     chunking.SessionOptions: one chunk per session, no window and no render
//     limit, so a session longer than 5,000 characters keeps every user turn
//     (an embedder cuts its own copy to the input cap). A session without a
//     user turn is no source (counted). Two session IDs with one file name
//     are refused at FILE:LINE.
//   - A session in several haystacks is written once and must have the same
//     date and the same turns (role and text) in each; a difference is
//     refused at FILE:LINE naming the line of its first reading.
//   - The user of a question is the question: Split gives the benchmark's
//     own setting, one haystack per folder; the pooled folder searches every
//     haystack at once, a harder setting than the benchmark's. Write gives no
//     folder to a user without retrieval questions (Info.UsersWithoutFolder).
//   - Gold: the user turns with has_answer in the answer sessions. A question
//     with no user turn marked has_answer in its haystack is dropped, as
//     LongMemEval skips it ("no target turns from the user side"), and so is
//     one whose marked turns lie outside its answer sessions (both listed in
//     dataset.json). question_type maps by LongMemEvalTypes; questions whose
//     ID holds `_abs` form the no-answer set (type "abstention").
//   - The input must be UTF-8 with nothing after the question array.
package datasets
