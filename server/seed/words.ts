import type { Random } from './random'

/**
 * Vocabulary for demo members and posts. Small lists are enough: the point is text of realistic length and shape
 * (sentences, mentions, hashtags) so post cards, search and the feed's row sizes look like a real network's.
 */

export const firstNames = [
  'ada', 'alan', 'amara', 'ana', 'anil', 'ari', 'bea', 'ben', 'camille', 'carlos', 'chen', 'chloe', 'dan', 'dara',
  'david', 'elena', 'eli', 'emma', 'farah', 'felix', 'grace', 'hana', 'hugo', 'ida', 'ines', 'ivan', 'jade', 'jon',
  'julia', 'kai', 'kenji', 'lara', 'leo', 'lina', 'luca', 'maya', 'mei', 'mila', 'nadia', 'nico', 'noah', 'nora',
  'omar', 'oscar', 'priya', 'quinn', 'rafael', 'rosa', 'sam', 'sara', 'sofia', 'tariq', 'theo', 'uma', 'vera',
  'wei', 'yara', 'yusuf', 'zoe', 'zara',
] as const

export const lastNames = [
  'abe', 'adams', 'ali', 'bauer', 'berg', 'costa', 'cruz', 'dahl', 'diaz', 'evans', 'fischer', 'garcia', 'gupta',
  'haddad', 'hall', 'ito', 'jensen', 'kim', 'kowalski', 'lee', 'lopez', 'martin', 'meyer', 'moreau', 'nakamura',
  'nguyen', 'novak', 'okafor', 'olsen', 'park', 'patel', 'perez', 'popescu', 'rossi', 'santos', 'schmidt', 'silva',
  'singh', 'smith', 'tanaka', 'torres', 'umar', 'varga', 'wang', 'weber', 'wilson', 'xu', 'yilmaz', 'zhang',
] as const

/** Hashtags as people type them; stored lowercased. Earlier ones are drawn more often (a few trends, a long tail). */
export const hashtags = [
  'photography', 'coffee', 'NewMusic', 'running', 'books', 'travel', 'cooking', 'TechNews', 'gardening', 'cats',
  'dogs', 'art', 'climate', 'football', 'design', 'OpenSource', 'science', 'movies', 'hiking', 'music', 'food',
  'nature', 'cycling', 'programming', 'writing', 'poetry', 'history', 'space', 'birds', 'baking', 'yoga', 'chess',
  'gaming', 'sunset', 'weekend', 'MondayMotivation', 'ThrowbackThursday', 'FridayFeeling', 'localnews', 'jazz',
  'vinyl', 'knitting', 'podcast', 'StreetArt', 'architecture', 'urbanism', 'transit', 'wildlife', 'ocean',
  'mountains', 'rain', 'snow', 'spring', 'summer', 'autumn', 'winter', 'tea', 'wine', 'beer', 'vegan', 'recipes',
  'parenting', 'education', 'health', 'fitness', 'mentalhealth', 'selfcare', 'startup', 'remotework', 'privacy',
  'security', 'linux', 'rustlang', 'javascript', 'python', 'AI', 'robotics', 'astronomy', 'physics', 'biology',
  'math', 'languages', 'film', 'theatre', 'dance', 'fashion', 'crafts', 'pottery', 'woodworking', 'cars',
  'motorsport', 'tennis', 'basketball', 'climbing', 'skiing', 'surfing', 'fishing', 'camping', 'roadtrip',
  'festival', 'concert', 'comics', 'anime', 'boardgames', 'volunteering', 'community', 'elections', 'economy',
] as const

export const openers = [
  'Just', 'Finally', 'Today I', 'This morning I', 'Honestly,', 'Quick thought:', 'Reminder:', 'Not sure why but I',
  'Can we talk about how I', 'Little update: I', 'Last night I', 'So I', 'Well, I', 'Turns out I',
] as const

export const verbs = [
  'finished', 'started', 'tried', 'found', 'watched', 'read', 'cooked', 'fixed', 'planted', 'visited', 'shared',
  'wrote', 'photographed', 'rebuilt', 'discovered', 'recommended', 'ordered', 'painted', 'recorded', 'learned',
] as const

export const objects = [
  'a new recipe', 'the old bike', 'an amazing book', 'a tiny cafe downtown', 'the garden beds', 'a short film',
  'the neighbourhood market', 'a jazz record', 'my first sourdough', 'a trail by the river', 'the local library',
  'a board game with friends', 'a small open source patch', 'the community garden', 'a sunset from the roof',
  'an old camera', 'a long walk', 'the new album everyone talks about', 'a museum exhibition', 'a podcast episode',
] as const

export const closers = [
  'Highly recommend.', 'Would do it again.', 'Not bad at all!', 'More soon.', 'What do you think?', 'Any tips?',
  'Pictures later.', 'Worth every minute.', 'Still thinking about it.', 'Ten out of ten.', 'Could be better.',
  'Who else?', 'Thoughts?', 'Anyway, back to work.', 'Life is good.', '',
] as const

const replyLines = [
  'Totally agree!', 'Love this.', 'Ha, same here.', 'Where was this?', 'Thanks for sharing!', 'Great shot.',
  'I need to try that.', 'Not sure I agree, but fair point.', 'Congrats!', 'This made my day.', 'Tell me more!',
  'Saving this for later.', 'Exactly what I was thinking.', 'Wow.', 'So good.',
] as const

export const sensitiveReasons = ['Spoilers', 'Food photos', 'Politics', 'Eye contact', 'Medical', 'Loud video'] as const

export const bios = [
  'Coffee first.', 'Photographer and part-time gardener.', 'Reading, running, repeat.', 'Opinions are my cat\'s.',
  'Building small things on the internet.', 'Maker of bread and bad puns.', 'Here for the birds.', 'Teacher. Hiker.',
  'Music, maps and long walks.', '', '', '',
] as const

/** One or two sentences, about 40-160 characters. */
export function sentence(random: Random): string {
  const first = `${random.pick(openers)} ${random.pick(verbs)} ${random.pick(objects)}. ${random.pick(closers)}`
  return random.chance(0.3)
    ? `${first} ${random.pick(openers)} ${random.pick(verbs)} ${random.pick(objects)} too.`
    : first.trimEnd()
}

export function replyText(random: Random): string {
  return random.chance(0.5) ? random.pick(replyLines) : `${random.pick(replyLines)} ${sentence(random)}`
}
