-- Direct messages: who may message whom, and a send, each as one function call, so a send costs one round trip to
-- the database instead of six (bench/README.md, messaging: the PostgreSQL driver was half the server's time per
-- message). The rules are the ones server/modules/messages/service.ts states and maps to the member's words:
--   'not-found'      a member is missing;
--   'refused'        a block either way, or the recipient's allowDMs ('none'; 'following' and they do not follow
--                    the sender);
--   'recipient-keys' the recipient has no message key (or an admin asked them to make a new one);
--   'sender-keys'    the sender has no message key;
--   null             allowed.
-- Both members' rows are share-locked in id order first, as a block, a follow or an allowDMs change lock them for
-- update: each rule is then read by a statement of its own, which in a VOLATILE function sees what committed while
-- the lock was awaited, so a block that commits during a send is either seen or waits for the message.
CREATE FUNCTION wren_message_refusal(p_sender uuid, p_recipient uuid) RETURNS text
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
DECLARE
  v_recipient record;
  v_sender_key text;
BEGIN
  PERFORM 1 FROM users u WHERE u.id IN (p_sender, p_recipient) ORDER BY u.id FOR SHARE;
  SELECT u.allow_dms, u.public_key, u.keys_requested INTO v_recipient FROM users u WHERE u.id = p_recipient;
  IF NOT FOUND THEN RETURN 'not-found'; END IF;
  SELECT u.public_key INTO v_sender_key FROM users u WHERE u.id = p_sender;
  IF NOT FOUND THEN RETURN 'not-found'; END IF;
  IF v_recipient.allow_dms = 'none'
    OR EXISTS (SELECT 1 FROM user_blocks b
               WHERE (b.blocker_id = p_recipient AND b.blocked_id = p_sender)
                  OR (b.blocker_id = p_sender AND b.blocked_id = p_recipient))
    OR (v_recipient.allow_dms = 'following'
        AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = p_recipient AND f.followee_id = p_sender))
  THEN
    RETURN 'refused';
  END IF;
  IF v_recipient.keys_requested OR v_recipient.public_key IS NULL THEN RETURN 'recipient-keys'; END IF;
  IF v_sender_key IS NULL THEN RETURN 'sender-keys'; END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A send: the sender's membership, the rules above, the message and both members' list rows (back on top,
-- un-archived, un-hidden), all in the one statement's transaction. A refused send writes nothing and answers why,
-- with the other member's id and display name for the message; 'no-conversation' when the sender is not in it.
CREATE FUNCTION wren_send_message(p_id uuid, p_conversation uuid, p_sender uuid, p_content text)
RETURNS TABLE (
  refusal text, other_id uuid, other_name text,
  id uuid, conversation_id uuid, sender_id uuid, content text, edited boolean, deleted boolean, read boolean,
  created_at timestamptz, at text
)
LANGUAGE plpgsql VOLATILE SET search_path FROM CURRENT AS $$
#variable_conflict use_column
DECLARE
  v_other uuid;
  v_name text;
  v_refusal text;
BEGIN
  SELECT om.user_id INTO v_other
    FROM conversation_members cm
    JOIN conversation_members om ON om.conversation_id = cm.conversation_id AND om.user_id <> cm.user_id
    WHERE cm.conversation_id = p_conversation AND cm.user_id = p_sender;
  IF v_other IS NULL THEN
    RETURN QUERY SELECT 'no-conversation'::text, NULL::uuid, NULL::text, NULL::uuid, NULL::uuid, NULL::uuid, NULL::text,
      NULL::boolean, NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;
  v_refusal := wren_message_refusal(p_sender, v_other);
  SELECT u.display_name INTO v_name FROM users u WHERE u.id = v_other;
  IF v_refusal IS NOT NULL THEN
    RETURN QUERY SELECT v_refusal, v_other, v_name, NULL::uuid, NULL::uuid, NULL::uuid, NULL::text,
      NULL::boolean, NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::text;
    RETURN;
  END IF;
  UPDATE conversation_members
    SET last_activity_at = greatest(last_activity_at, now()), archived = false, hidden = false
    WHERE conversation_id = p_conversation;
  RETURN QUERY
    INSERT INTO messages AS m (id, conversation_id, sender_id, content)
    VALUES (p_id, p_conversation, p_sender, p_content)
    RETURNING NULL::text, v_other, v_name, m.id, m.conversation_id, m.sender_id, m.content, m.edited, m.deleted,
      m.read_at IS NOT NULL, m.created_at, ((extract(epoch FROM m.created_at) * 1000000)::bigint)::text;
END
$$;
