import { useParams } from 'wouter'
import { PostPage } from './PostPage'

// The route's entry point (/post/:postId); the page itself lives in src/views/post-page.
export function PostScreen() {
  const { postId = '' } = useParams<{ postId: string }>()
  return <PostPage postId={postId} />
}
